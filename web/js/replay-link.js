// Where a finished match's replay is (replay.html): one spelling for every page that links it.

/** The replay page of deal `deal` (1: the first) of match `matchId`. */
export function replayUrl(matchId, deal = 1) {
  return `replay.html?match=${encodeURIComponent(matchId)}&deal=${encodeURIComponent(deal)}`;
}
