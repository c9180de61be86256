// What survives a reload: the player's name, per room the seat token (the only proof
// of a seat) and the host token, and per tournament the player's and the host's tokens.
// Kept in localStorage so a reload or a new tab of the same
// browser resumes the same seat.

const PREFIX = "uno.";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the seat just will not survive a reload.
  }
}

export const storage = {
  /** The player's name; a guest name is made up (and kept) the first time. */
  name: () => {
    let name = read("name", "");
    if (!name) {
      name = `${guestWord()} ${Math.floor(100 + Math.random() * 900)}`;
      write("name", name);
    }
    return name;
  },
  setName: (name) => write("name", name),
  /** {seat, token, hostToken, code, name} for a room, or null. */
  seat: (roomId) => read(`room.${roomId}`, null),
  setSeat: (roomId, info) => write(`room.${roomId}`, { ...(read(`room.${roomId}`, {}) || {}), ...info }),
  forget: (roomId) => write(`room.${roomId}`, null),
  /** {playerId, token, name, hostToken} for a tournament, or null. */
  tournament: (id) => read(`tournament.${id}`, null),
  setTournament: (id, info) =>
    write(`tournament.${id}`, { ...(read(`tournament.${id}`, {}) || {}), ...info }),
};

function guestWord() {
  return document.documentElement.lang === "da" ? "Gæst" : "Guest";
}
