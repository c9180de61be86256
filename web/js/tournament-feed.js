// A tournament's live socket (/ws/tournaments/{id}, docs/tournaments.md "Live"), as
// uno-client's TournamentFeed keeps it: a snapshot, then each event once in `seq` order,
// resumed after a gap or a lost socket.

import { TournamentFeed as Feed } from "uno-client";
import { client } from "./client.js";

export class TournamentFeed {
  /**
   * @param {string} tournamentId
   * @param {object} handlers  onSnapshot(tournament, standings, seq), onEvent(event, seq),
   *   onStatus({state, retryIn})
   */
  constructor(tournamentId, handlers = {}) {
    this.feed = new Feed(client, tournamentId);
    if (handlers.onSnapshot) this.feed.on("snapshot", handlers.onSnapshot);
    if (handlers.onEvent) this.feed.on("event", handlers.onEvent);
    if (handlers.onStatus) this.feed.on("status", handlers.onStatus);
  }

  connect() {
    this.feed.open();
  }

  close() {
    this.feed.close();
  }
}
