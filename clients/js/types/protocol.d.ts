// Generated from docs/schemas/ by clients/js/scripts/generate-types.js: do not edit.
// Regenerate with `npm run types` in clients/js after the schemas change.

/**
 * Any action (inside `action`).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "Action".
 */
export type Action = (PlayAction | DrawAction | PassAction | CallUnoAction | CatchUnoAction | ChallengeAction | ChooseColorAction | NextDealAction | MisplayAction | KeepAction | DiscardAction | MeldAction | LayOffAction | TakeDiscardAction | TakePileAction | DiscardCardAction | SwapJokerAction | TurnCardAction)
/**
 * Any client -> server message.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ClientMessage".
 */
export type ClientMessage = (ActionMessage1 | ResumeMessage | PingMessage | PongReply | EntropyMessage | ChatMessage | ReactMessage)
/**
 * Any event (inside `events`).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "Event".
 */
export type Event = (JoinEvent | LeaveEvent | KickEvent | UnbanEvent | TimeoutEvent | AutoEvent | AwayEvent | BackEvent | HostEvent | ReadyEvent | ClockResumedEvent | PausedEvent | UnpausedEvent | MatchEndedEvent | RoomEndedEvent | ConnectEvent | DisconnectEvent | WatchEvent | UnwatchEvent | WatchersEvent | SettingsEvent | StartEvent | SeatingEvent | EntropyEvent | TimerEvent | RaceEvent | DealEvent | DealerDrawEvent | FirstCardEvent | FirstCardReshuffledEvent | PlayEvent | JumpInEvent | DrawEvent | PassEvent | MisplayEvent | HandLimitEvent | KnockedOutEvent | PlacedEvent | ClockOutEvent | BombEvent | BlindPlayEvent | PenaltyEvent | SkipEvent | ReverseEvent | DeflectEvent | ReshuffleEvent | CallUnoEvent | CatchUnoEvent | ChallengeEvent | ChooseColorEvent | SwapHandsEvent | PassHandsEvent | ShuffleHandsEvent | FlipEvent | KeepEvent | DiscardEvent | SipEvent | SipsEvent | DealOverEvent | MatchOverEvent | MeldEvent | LayOffEvent | TakeDiscardEvent | TakePileEvent | DiscardCardEvent | SwapJokerEvent | TurnCardEvent)
/**
 * Any server -> client message.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ServerMessage".
 */
export type ServerMessage = (SnapshotMessage | PatchMessage | AckMessage | ErrorMessage | PongMessage | ServerPing | ChatSaid | ReactionSent)
/**
 * A view of any game kind (or the lobby).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "View".
 */
export type View = (LobbyView | SheddingView | RommyView | BottleView)

export interface UnoProtocol {

}
/**
 * Your action ``ref`` was accepted as the change ``seq``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "AckMessage".
 */
export interface AckMessage {
ref: string
seq: number
type: "ack"
}
/**
 * Call UNO.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "CallUnoAction".
 */
export interface CallUnoAction {
at?: (number | null)
type: "callUno"
}
/**
 * Catch a player who did not call UNO.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "CatchUnoAction".
 */
export interface CatchUnoAction {
at?: (number | null)
/**
 * a seat number, 0..n-1 clockwise
 */
target: number
type: "catchUno"
}
/**
 * Challenge a Wild Draw Four (or Flip's Wild Draw Two/Colour).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ChallengeAction".
 */
export interface ChallengeAction {
at?: (number | null)
type: "challenge"
}
/**
 * Name the colour when the rules ask for it.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ChooseColorAction".
 */
export interface ChooseColorAction {
at?: (number | null)
/**
 * a colour letter: R G B Y, or P T O V (Flip dark)
 */
color: string
type: "chooseColor"
}
/**
 * UNO Duo draft: discard the offered card.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DiscardAction".
 */
export interface DiscardAction {
at?: (number | null)
type: "discard"
}
/**
 * UNO Rommy: discard a card, ending the turn.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DiscardCardAction".
 */
export interface DiscardCardAction {
at?: (number | null)
/**
 * @minItems 1
 * 
 * Items: a card code (docs/cards.md)
 */
cards: [string, ...(string)[]]
type: "discardCard"
}
/**
 * Draw a card, or take the pending penalty.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DrawAction".
 */
export interface DrawAction {
at?: (number | null)
type: "draw"
}
/**
 * UNO Duo draft: keep the offered card.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "KeepAction".
 */
export interface KeepAction {
at?: (number | null)
type: "keep"
}
/**
 * UNO Rommy: add cards to a meld on the table (`cards` in any order: the server lays them in table order).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LayOffAction".
 */
export interface LayOffAction {
at?: (number | null)
/**
 * @minItems 1
 * 
 * Items: a card code (docs/cards.md)
 */
cards: [string, ...(string)[]]
/**
 * the meld's index in `melds`
 */
target: number
type: "layOff"
}
/**
 * UNO Rommy: lay a meld from the hand (`cards` in any order: the server lays them in table order).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "MeldAction".
 */
export interface MeldAction {
at?: (number | null)
/**
 * @minItems 1
 * 
 * Items: a card code (docs/cards.md)
 */
cards: [string, ...(string)[]]
type: "meld"
}
/**
 * misplayPenalty: the room's own penalty card for a refused play (`cards`: what it tried); a client need not send it.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "MisplayAction".
 */
export interface MisplayAction {
at?: (number | null)
/**
 * @minItems 1
 * 
 * Items: a card code (docs/cards.md)
 */
cards: [string, ...(string)[]]
type: "misplay"
}
/**
 * Start the next deal after dealOver.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "NextDealAction".
 */
export interface NextDealAction {
at?: (number | null)
type: "nextDeal"
}
/**
 * End the turn after drawing, keeping the card (or as a rule allows).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PassAction".
 */
export interface PassAction {
at?: (number | null)
type: "pass"
}
/**
 * Play one card, or several where the rules allow; out of turn it is a jump-in.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PlayAction".
 */
export interface PlayAction {
at?: (number | null)
/**
 * in play order
 * 
 * @minItems 1
 * 
 * Items: a card code (docs/cards.md)
 */
cards: [string, ...(string)[]]
/**
 * for a wild
 */
color?: (string | null)
/**
 * for a seven swap
 */
target?: (number | null)
type: "play"
/**
 * call UNO with this play
 */
uno?: boolean
}
/**
 * UNO Rommy: swap a card for the joker standing in for it in a meld.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SwapJokerAction".
 */
export interface SwapJokerAction {
at?: (number | null)
/**
 * @minItems 1
 * 
 * Items: a card code (docs/cards.md)
 */
cards: [string, ...(string)[]]
/**
 * the meld's index
 */
target: number
type: "swapJoker"
}
/**
 * UNO Rommy: take the top discard.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TakeDiscardAction".
 */
export interface TakeDiscardAction {
at?: (number | null)
type: "takeDiscard"
}
/**
 * UNO Rommy: take the whole discard pile.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TakePileAction".
 */
export interface TakePileAction {
at?: (number | null)
type: "takePile"
}
/**
 * Bottle UNO: turn the top card.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TurnCardAction".
 */
export interface TurnCardAction {
at?: (number | null)
/**
 * who gets the sips
 */
target?: (number | null)
type: "turnCard"
}
/**
 * The documented form of ``action``: one of the action models. The server reads any
 * object there and lets the engine refuse a malformed action with its own code
 * (``unknown_action``, ``bad_cards``, ...).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ActionMessage".
 */
export interface ActionMessage {
action: (PlayAction | DrawAction | PassAction | CallUnoAction | CatchUnoAction | ChallengeAction | ChooseColorAction | NextDealAction | MisplayAction | KeepAction | DiscardAction | MeldAction | LayOffAction | TakeDiscardAction | TakePileAction | DiscardCardAction | SwapJokerAction | TurnCardAction)
id: string
/**
 * optional: ms from this client receiving the position the action answers to the player's press (believed only within a small margin of the server's own estimate; docs/fairness.md)
 */
react?: (number | null)
type: "action"
}
/**
 * The last turned card: what its `turnCard` event said, and the sips it gave.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "BottleLast".
 */
export interface BottleLast {
action: string
/**
 * a card code (docs/cards.md)
 */
card: string
/**
 * the sips each receiver drinks (0: the card gives none)
 */
count: number
/**
 * reverse: the new direction
 */
direction?: (number | null)
/**
 * an announced action: all join
 */
everyone?: (boolean | null)
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
/**
 * drawTwo: the neighbour who drinks
 */
side?: (("left" | "right") | null)
sips: Sip[]
/**
 * skip: the seat skipped
 */
skipped?: (number | null)
/**
 * give: the seat given the sips
 */
target?: (number | null)
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "Sip".
 */
export interface Sip {
count: number
reason: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
}
/**
 * One finished deal of the match, for the scoreboard of every deal.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DealResult".
 */
export interface DealResult {
deal: number
/**
 * each seat's points of the deal (None: no scores)
 */
scores: (number[] | null)
/**
 * each seat's running total after the deal
 */
totals: number[]
/**
 * who went out (None: nobody)
 */
winner: (number | null)
}
/**
 * One action this seat may send now. Without ``needs`` it is complete; with it, the
 * client adds each named field, choosing from ``colors`` or ``targets``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LegalEntry".
 */
export interface LegalEntry {
cards?: (string[] | null)
color?: (string | null)
colors?: (string[] | null)
needs?: (("color" | "target")[] | null)
target?: (number | null)
targets?: (number[] | null)
/**
 * an action type
 */
type: string
uno?: (boolean | null)
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "Player".
 */
export interface Player {
/**
 * the autopilot plays the seat meanwhile
 */
away?: (boolean | null)
/**
 * server ms when the autopilot takes the seat over (every socket of it closed; the room's absentAfter after the last one), or null
 */
awayAt?: (number | null)
/**
 * ms of time bank left this match
 */
bank?: (number | null)
/**
 * blitzSeconds: ms left on the seat's match clock when the view was made (it runs down while the seat decides: see `deadline`), or null without blitz
 */
blitz?: (number | null)
/**
 * a seat the room plays: the bot's level
 */
bot?: (("easy" | "normal" | "hard") | null)
/**
 * how many cards the seat holds
 */
cards: number
/**
 * some socket of the seat is open
 */
connected?: (boolean | null)
/**
 * its player left mid-match; a bot plays on, the score kept
 */
left?: (boolean | null)
/**
 * null for a seat nobody holds
 */
name?: (string | null)
/**
 * knocked out (knockout scoring)
 */
out?: (boolean | null)
/**
 * placings: the seat's place this deal (1 first out), or null
 */
place?: (number | null)
/**
 * an account's seat: its rating; null for guests and bots
 */
rating?: (SeatRating | null)
score: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SeatRating".
 */
export interface SeatRating {
games: number
/**
 * fewer than 20 rated games (shown with a ?)
 */
provisional: boolean
/**
 * the account's shown rating in the room's pool
 */
value: number
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RoomEnded".
 */
export interface RoomEnded {
reason: ("claim" | "empty")
totals: (number[] | null)
winner: (number | null)
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RoomInfo".
 */
export interface RoomInfo {
/**
 * seconds without a socket before the autopilot plays a seat
 */
absentAfter?: (number | null)
/**
 * names the host kicked
 */
bans?: (string[] | null)
/**
 * every finished deal of the match so far, oldest first
 */
deals?: (DealResult[] | null)
/**
 * the room ended the match itself
 */
ended?: (RoomEnded | null)
/**
 * the hosting seat, if a seat hosts
 */
hostSeat?: (number | null)
id: string
matchId: (string | null)
/**
 * seats whose chat the host muted
 */
muted?: (number[] | null)
name: string
private: boolean
/**
 * its matches are rated: GET /api/matches/{matchId}/ratings has the changes
 */
rated?: (boolean | null)
/**
 * seats that said "ready" for the next deal (the host deals it)
 */
ready?: (number[] | null)
seats: number
spectators: boolean
status: ("lobby" | "playing" | "over" | "ended")
/**
 * seconds of bank per player
 */
timeBank?: (number | null)
/**
 * seconds per decision, or "off"
 */
turnSeconds?: (number | "off" | null)
/**
 * spectator sockets open
 */
watchers: number
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "Rules".
 */
export interface Rules {
/**
 * Points for Skip, Reverse, Draw Two
 */
actionValue?: (number | null)
/**
 * The drawn card is not shown to you: if it can be played it is played at once
 */
blindDraw?: (boolean | null)
/**
 * A clock for the whole match per player; at 0 the match ends (0: off, else 60-3600 s)
 */
blitzSeconds?: (number | null)
/**
 * Three or more cards of one number played together make everyone else draw one
 */
bomb?: (boolean | null)
/**
 * A Draw Two on a Wild Draw Four, a Wild Draw Four on a Draw Two, or both
 */
crossStack?: (("none" | "drawTwoOnDrawFour" | "drawFourOnDrawTwo" | "both") | null)
/**
 * Deal seven each, or draft them (UNO Duo)
 */
dealMethod?: (("deal" | "draft") | null)
/**
 * Decks shuffled together (two for 7-10 players)
 */
decks?: (number | null)
/**
 * Every deal counts twice towards the totals
 */
doubleScore?: (boolean | null)
/**
 * After taking a Wild Draw Four you must play its colour, or draw up to 3 and pass
 */
drawFourFollowColor?: (boolean | null)
/**
 * Draw until you can play instead of drawing one card
 */
drawToMatch?: (boolean | null)
/**
 * Most cards drawn under drawToMatch (0: no cap)
 */
drawToMatchCap?: (number | null)
/**
 * A playable card you draw may be played at once (DrukUNO: drawing ends the turn)
 */
drawnCardPlayable?: (boolean | null)
/**
 * Keep a tally of sips (DrukUNO drinking rules)
 */
drinks?: (boolean | null)
/**
 * Everybody Draws Two cards added to the deck
 */
everybodyDrawsTwo?: (number | null)
/**
 * An action card turned up first acts as if the dealer had played it
 */
firstCardPlayedByDealer?: (boolean | null)
/**
 * How the first card acts: the official rules or UNO Duo's
 */
firstCardRules?: (("classic" | "duo") | null)
/**
 * A Wild turned up first: the first player names the colour, or it is reshuffled
 */
firstCardWild?: (("firstPlayerChooses" | "reshuffle") | null)
/**
 * A first Wild Draw Four goes back and is reshuffled, or is buried in the pile
 */
firstCardWildDrawFour?: (("reshuffle" | "bury") | null)
/**
 * A Flip turns the piles over (bottom card on top) or flips each card in place
 */
flipPiles?: (("turnOver" | "flipInPlace") | null)
/**
 * The last card must be a number card
 */
forbidActionFinish?: (boolean | null)
/**
 * A player who can play must play: no drawing instead (a penalty may be taken)
 */
forcedPlay?: (boolean | null)
/**
 * A card you draw that can be played must be played at once
 */
forcedPlayDrawn?: (boolean | null)
/**
 * A hand of this many cards is out of the deal, or draws no more (0: off, else 8-30)
 */
handLimit?: (number | null)
/**
 * A hand at the limit is out of the deal, or stops drawing
 */
handLimitRule?: (("out" | "stopDrawing") | null)
/**
 * A hand of this many cards or more is shown to everyone (0: off, else 5-30)
 */
handReveal?: (number | null)
/**
 * Anyone holding an exact copy of the top card may play it out of turn
 */
jumpIn?: (boolean | null)
/**
 * After a jump-in play continues from the jumper, or stays with the turn holder
 */
jumpInContinuesFrom?: (("jumper" | "turnHolder") | null)
/**
 * Play to a target score, end after one deal, or knock out players over the target
 */
matchMode?: (("points" | "oneAndDone" | "knockout") | null)
/**
 * An illegal play attempt costs a card (the play itself is refused)
 */
misplayPenalty?: (boolean | null)
/**
 * Play several cards of one number, or one action type, at once
 */
multiPlay?: (boolean | null)
/**
 * The last card may not be a wild
 */
noWildFinish?: (boolean | null)
/**
 * Number cards score their face or ten
 */
numberCards?: (("faceValue" | "flatTen") | null)
/**
 * After a draw penalty keep drawing until a playable card comes, and you may play it
 */
penaltyDrawToMatch?: (boolean | null)
/**
 * Play on after the first player goes out until one is left; each going out scores
 */
placings?: (boolean | null)
preset?: (string | null)
/**
 * A Reverse sends a pending draw penalty back to the player who laid it
 */
reverseDeflect?: (boolean | null)
/**
 * A Reverse may be followed by every card of its colour in your hand (all or nothing)
 */
reverseDumpsColor?: (boolean | null)
/**
 * End after this many deals (0: play to the target)
 */
roundLimit?: (number | null)
/**
 * Winner scores all hands (highest wins), or each scores own hand (lowest wins)
 */
scoringMode?: (("winnerCollects" | "ownHandCounts") | null)
/**
 * A 7 swaps hands with a chosen opponent (without the 0 pass)
 */
sevenSwap?: (boolean | null)
/**
 * A 7 swaps hands with a chosen player; a 0 passes every hand on
 */
sevenZero?: (boolean | null)
/**
 * The seats are shuffled at the start of a match
 */
shuffleSeats?: (boolean | null)
/**
 * Count the tally as points instead of sips
 */
sipsAsPoints?: (boolean | null)
/**
 * A Skip passes a pending draw penalty on to the next player
 */
skipDeflect?: (boolean | null)
/**
 * A Wild Draw Four may be laid on a Wild Draw Four (also without stacking)
 */
stackDrawFour?: (boolean | null)
/**
 * With stacking, Wild Draw Fours stack too (not only Draw Twos)
 */
stackWildDrawFour?: (boolean | null)
/**
 * Draw Two on Draw Two, Wild Draw Four on Wild Draw Four pass the growing penalty on
 */
stacking?: (boolean | null)
/**
 * UNO must be called with (or before) the next-to-last card, never after
 */
strictUno?: (boolean | null)
/**
 * A 0 or 7 played as the last card still passes or swaps hands: no win
 */
swapOnLastCard?: (boolean | null)
/**
 * The match ends when a total reaches this
 */
targetScore?: (number | null)
/**
 * Play in teams of 2 or 3, partners opposite, the team's scores added (0: off)
 */
teams?: (number | null)
/**
 * Cards drawn when caught not calling UNO (0: no penalty)
 */
unoPenalty?: (number | null)
/**
 * Wild Draw Eight cards added to the deck
 */
wildDrawEight?: (number | null)
/**
 * The victim of a Wild Draw Four may challenge it
 */
wildDrawFourChallenge?: (boolean | null)
/**
 * The player of a Wild Draw Four takes another turn
 */
wildDrawFourPlaysAgain?: (boolean | null)
/**
 * When a Wild Draw Four may be played
 */
wildDrawFourRestriction?: (("noMatchingColor" | "noPlayableCard" | "none") | null)
/**
 * Points for a Wild Draw Four
 */
wildDrawFourValue?: (number | null)
/**
 * Points for a Wild
 */
wildValue?: (number | null)
/**
 * A 0 passes every hand on (without the 7 swap)
 */
zeroPass?: (boolean | null)
/**
 * Which way hands pass when a 0 is played
 */
zeroPassDirection?: (("withPlay" | "againstPlay") | null)
}
/**
 * The verifiable shuffle: the deal's commitment, its proof once over, the next's.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ShuffleInfo".
 */
export interface ShuffleInfo {
commitment?: (string | null)
deal?: (number | null)
next?: (ShuffleNext | null)
revealed?: (ShuffleReveal | null)
}
/**
 * The next deal, while contributions to its seed are open.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ShuffleNext".
 */
export interface ShuffleNext {
/**
 * SHA-256 of the next deal's server seed, hex
 */
commitment: string
deal: number
/**
 * the seats that contributed so far
 * 
 * Items: a seat number, 0..n-1 clockwise
 */
entropy: number[]
}
/**
 * A finished deal's shuffle proof (docs/fairness.md).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ShuffleReveal".
 */
export interface ShuffleReveal {
/**
 * the clients' contributions, sorted
 */
entropy: string[]
/**
 * S_k, hex: SHA-256 of it is the deal's commitment
 */
serverSeed: string
}
/**
 * Bottle UNO: turning cards, giving and drinking sips.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "BottleView".
 */
export interface BottleView {
/**
 * server ms when the decision's turn time ends and its time bank starts (the bank runs until `deadline`), or null
 */
bankFrom?: (number | null)
/**
 * the colour in force
 */
color: (string | null)
/**
 * server ms when the current decision times out
 */
deadline?: (number | null)
/**
 * whose decision that is
 */
deadlineSeat?: (number | null)
deal: number
dealScores: ((number | null)[] | null)
dealer: (number | null)
direction: (1 | -1)
drawPile: number
/**
 * the card you just drew, while you may play it
 */
drawn: (string | null)
drinks: number[]
game: "bottle"
/**
 * your cards, in the order you hold them
 * 
 * Items: a card code (docs/cards.md)
 */
hand: string[]
lastAction: (BottleLast | null)
legal: LegalEntry[]
matchOver: boolean
/**
 * actions applied in this match; send it as `at`
 */
moves: number
peeCards: number[]
/**
 * cards the next draw takes (a stacked penalty)
 */
pendingDraw: number
phase: ("playing" | "dealOver" | "matchOver")
players: Player[]
/**
 * every hand, after a deal
 */
reveal: (string[][] | null)
room: RoomInfo
rules: Rules
/**
 * the seq of the last change this view includes
 */
seq: number
shuffle?: ShuffleInfo1
sips: Sip[]
top: (string | null)
totals: number[]
turn: (number | null)
turned: number
/**
 * a seat with one card that did not call UNO
 */
unoExposed: (number | null)
winner: (number | null)
/**
 * your seat; null for spectators
 */
you: (number | null)
}
/**
 * the verifiable shuffle (docs/fairness.md)
 */
export interface ShuffleInfo1 {
commitment?: (string | null)
deal?: (number | null)
next?: (ShuffleNext | null)
revealed?: (ShuffleReveal | null)
}
/**
 * Say something to the room (not a game change: no ``seq``). Relayed to everyone as
 * ``chat``; a spectator's only to spectators. At most 200 characters, 5 messages (chat
 * and reactions) per 10 s per socket; refused with ``chat_too_long``, ``chat_empty``,
 * ``chat_rate`` or ``muted``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ChatMessage".
 */
export interface ChatMessage {
text: string
type: "chat"
}
/**
 * Someone said ``text``: a seat (``seat``, ``name``) or, to spectators only, a
 * spectator (``spectator``: true, no seat). Not a game change: no ``seq``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ChatSaid".
 */
export interface ChatSaid {
name: (string | null)
seat: (number | null)
spectator: boolean
text: string
ts: number
type: "chat"
}
/**
 * The documented form of ``action``: one of the action models. The server reads any
 * object there and lets the engine refuse a malformed action with its own code
 * (``unknown_action``, ``bad_cards``, ...).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ActionMessageSchema".
 */
export interface ActionMessage1 {
action: (PlayAction | DrawAction | PassAction | CallUnoAction | CatchUnoAction | ChallengeAction | ChooseColorAction | NextDealAction | MisplayAction | KeepAction | DiscardAction | MeldAction | LayOffAction | TakeDiscardAction | TakePileAction | DiscardCardAction | SwapJokerAction | TurnCardAction)
id: string
/**
 * optional: ms from this client receiving the position the action answers to the player's press (believed only within a small margin of the server's own estimate; docs/fairness.md)
 */
react?: (number | null)
type: "action"
}
/**
 * A seated client's contribution to the seed of deal ``deal`` (the next one: open in
 * the lobby and between deals, once per seat and deal). See docs/fairness.md.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "EntropyMessage".
 */
export interface EntropyMessage {
deal: number
type: "entropy"
value: string
}
/**
 * Answered with ``pong``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PingMessage".
 */
export interface PingMessage {
type: "ping"
}
/**
 * Answers the server's ``ping {n}`` at once: the server's own measure of this
 * connection's round trip (used to judge races fairly; docs/fairness.md).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PongReply".
 */
export interface PongReply {
n: number
type: "pong"
}
/**
 * A quick emote to the room, relayed as ``reaction`` (the same rules as ``chat``;
 * ``bad_emote`` for one not in the list).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ReactMessage".
 */
export interface ReactMessage {
emote: string
type: "react"
}
/**
 * After a reconnect: the ``seq`` of the view you hold. Answered with the patches since
 * (``patch`` messages, in order) or, when they are no longer kept, a ``snapshot``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ResumeMessage".
 */
export interface ResumeMessage {
lastSeq: number
type: "resume"
}
/**
 * A losing claimant's own place in the race it lost.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RaceOwn".
 */
export interface RaceOwn {
/**
 * the connection's credited round trip (capped)
 */
delay: (number | null)
rank: number
/**
 * ms from the change to the claim's arrival
 */
raw: (number | null)
/**
 * raw less delay: what was ranked
 */
reaction: (number | null)
/**
 * the round trips the credit came from
 */
rtt?: (RaceRtt | null)
seat?: (number | null)
/**
 * faster than a person reacts
 */
superhuman: boolean
tie: boolean
type?: (string | null)
/**
 * ms the claims were held
 */
window: number
}
/**
 * A claimant connection's measured round trips (ms; None: not measured).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RaceRtt".
 */
export interface RaceRtt {
/**
 * our ping/pong messages (answered by its code)
 */
app: (number | null)
/**
 * the kernel's TCP round trip of the socket
 */
tcp: (number | null)
/**
 * WebSocket ping frames (answered by its stack)
 */
ws: (number | null)
}
/**
 * The change a lost race went to: its ``seq``, action ``type`` and ``seat``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RaceWinner".
 */
export interface RaceWinner {
seat: number
seq: number
type: (string | null)
}
/**
 * Something you sent was refused; ``ref`` is the action's id when there was one. A
 * ``too_late`` refusal names the change that won the race in ``won`` (when known).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ErrorMessage".
 */
export interface ErrorMessage {
code: string
message: string
/**
 * a lost race: your own place
 */
race?: (RaceOwn | null)
ref: (string | null)
type: "error"
won?: (RaceWinner | null)
}
/**
 * The room moved for a seat it plays.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "AutoEvent".
 */
export interface AutoEvent {
by: ("bot" | "autopilot")
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "auto"
}
/**
 * The autopilot plays the seat until its player is back.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "AwayEvent".
 */
export interface AwayEvent {
reason: ("absent" | "timeouts")
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "away"
}
/**
 * The seat's player is back.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "BackEvent".
 */
export interface BackEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "back"
}
/**
 * blindDraw: the card just drawn is played unseen (the play event follows).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "BlindPlayEvent".
 */
export interface BlindPlayEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "blindPlay"
}
/**
 * bomb: `count` cards of one number played together; every other seat draws one.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "BombEvent".
 */
export interface BombEvent {
count: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "bomb"
}
/**
 * The seat called UNO.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "CallUnoEvent".
 */
export interface CallUnoEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "callUno"
}
/**
 * The seat caught `target` without UNO.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "CatchUnoEvent".
 */
export interface CatchUnoEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
/**
 * a seat number, 0..n-1 clockwise
 */
target: number
type: "catchUno"
}
/**
 * A Wild Draw Four was challenged; the challenger sees `hand`.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ChallengeEvent".
 */
export interface ChallengeEvent {
guilty: boolean
hand?: (string[] | null)
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
/**
 * a seat number, 0..n-1 clockwise
 */
target: number
type: "challenge"
}
/**
 * The seat named a colour.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ChooseColorEvent".
 */
export interface ChooseColorEvent {
/**
 * a colour letter: R G B Y, or P T O V (Flip dark)
 */
color: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "chooseColor"
}
/**
 * blitzSeconds: the seat's match clock ran out; the deal and the match end with it.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ClockOutEvent".
 */
export interface ClockOutEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "clockOut"
}
/**
 * A writer took the room over after an outage: the decider got `added` ms back.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ClockResumedEvent".
 */
export interface ClockResumedEvent {
added: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "clockResumed"
}
/**
 * A socket of the seat opened.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ConnectEvent".
 */
export interface ConnectEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "connect"
}
/**
 * A deal was dealt.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DealEvent".
 */
export interface DealEvent {
deal: number
/**
 * a seat number, 0..n-1 clockwise
 */
dealer: number
type: "deal"
}
/**
 * The deal ended.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DealOverEvent".
 */
export interface DealOverEvent {
deal?: (number | null)
dealScores?: ((number | null)[] | null)
drinks?: (number[] | null)
hands?: (string[][] | null)
scores?: ((number | null)[] | null)
seat?: (number | null)
totals?: (number[] | null)
type: "dealOver"
winner?: (number | null)
}
/**
 * Each seat drew a card to choose the dealer: [seat, card] pairs.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DealerDrawEvent".
 */
export interface DealerDrawEvent {
draws: [unknown, unknown][]
type: "dealerDraw"
}
/**
 * A Skip or Reverse sent the pending draw penalty on to `target`.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DeflectEvent".
 */
export interface DeflectEvent {
card: ("S" | "R")
pending: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
/**
 * a seat number, 0..n-1 clockwise
 */
target: number
type: "deflect"
}
/**
 * UNO Rommy: a card discarded.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DiscardCardEvent".
 */
export interface DiscardCardEvent {
acts?: (boolean | null)
/**
 * a card code (docs/cards.md)
 */
card: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "discardCard"
}
/**
 * UNO Duo draft: the seat discarded the offered card.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DiscardEvent".
 */
export interface DiscardEvent {
card?: (string | null)
discarded?: (string | null)
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "discard"
}
/**
 * A socket of the seat closed.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DisconnectEvent".
 */
export interface DisconnectEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "disconnect"
}
/**
 * Cards were drawn; only the drawer sees `cards`.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DrawEvent".
 */
export interface DrawEvent {
cards?: (string[] | null)
count: number
reason: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "draw"
}
/**
 * A seat contributed to the seed of deal `deal` (docs/fairness.md).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "EntropyEvent".
 */
export interface EntropyEvent {
deal: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "entropy"
}
/**
 * The first card was turned up.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "FirstCardEvent".
 */
export interface FirstCardEvent {
/**
 * a card code (docs/cards.md)
 */
card: string
type: "firstCard"
}
/**
 * The first card was shuffled back.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "FirstCardReshuffledEvent".
 */
export interface FirstCardReshuffledEvent {
/**
 * a card code (docs/cards.md)
 */
card: string
type: "firstCardReshuffled"
}
/**
 * UNO Flip: everything turned over.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "FlipEvent".
 */
export interface FlipEvent {
seat?: (number | null)
side: string
top?: (string | null)
type: "flip"
}
/**
 * handLimit (rule out): these seats' hands reached the limit; they sit the deal out.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "HandLimitEvent".
 */
export interface HandLimitEvent {
/**
 * Items: a seat number, 0..n-1 clockwise
 */
seats: number[]
type: "handLimit"
}
/**
 * The host role passed to this seat.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "HostEvent".
 */
export interface HostEvent {
name: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "host"
}
/**
 * A player (or a bot: its level) took a seat.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "JoinEvent".
 */
export interface JoinEvent {
bot?: (("easy" | "normal" | "hard") | null)
name: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "join"
}
/**
 * The play that follows was a jump-in.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "JumpInEvent".
 */
export interface JumpInEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "jumpIn"
}
/**
 * UNO Duo draft: the seat kept a card (its own seat sees it).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "KeepEvent".
 */
export interface KeepEvent {
card?: (string | null)
discarded?: (string | null)
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "keep"
}
/**
 * The host removed a player (bot: mid-match, a bot plays on).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "KickEvent".
 */
export interface KickEvent {
bot?: (boolean | null)
name: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "kick"
}
/**
 * knockout scoring: these seats' totals reached the target; they leave the match.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "KnockedOutEvent".
 */
export interface KnockedOutEvent {
/**
 * Items: a seat number, 0..n-1 clockwise
 */
seats: number[]
type: "knockedOut"
}
/**
 * UNO Rommy: cards added to a meld.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LayOffEvent".
 */
export interface LayOffEvent {
/**
 * Items: a card code (docs/cards.md)
 */
cards: string[]
meld: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "layOff"
}
/**
 * A player gave a seat up (bot: mid-match, a bot plays on).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LeaveEvent".
 */
export interface LeaveEvent {
bot?: (boolean | null)
name: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "leave"
}
/**
 * The room ended the match where it stood.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "MatchEndedEvent".
 */
export interface MatchEndedEvent {
reason: ("claim" | "empty")
type: "matchEnded"
winner?: (number | null)
}
/**
 * The match ended.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "MatchOverEvent".
 */
export interface MatchOverEvent {
drinks?: (number[] | null)
totals?: (number[] | null)
type: "matchOver"
winner?: (number | null)
}
/**
 * UNO Rommy: a meld was laid.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "MeldEvent".
 */
export interface MeldEvent {
/**
 * Items: a card code (docs/cards.md)
 */
as: string[]
/**
 * Items: a card code (docs/cards.md)
 */
cards: string[]
kind: string
meld: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
/**
 * Items: a seat number, 0..n-1 clockwise
 */
seats: number[]
type: "meld"
}
/**
 * misplayPenalty: the seat's refused play (`code`: why) costs it a card.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "MisplayEvent".
 */
export interface MisplayEvent {
/**
 * Items: a card code (docs/cards.md)
 */
cards: string[]
code: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "misplay"
}
/**
 * The seat passed.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PassEvent".
 */
export interface PassEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "pass"
}
/**
 * Every hand moved on.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PassHandsEvent".
 */
export interface PassHandsEvent {
direction: number
type: "passHands"
}
/**
 * A tournament's host paused the table: no clock runs, nobody moves.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PausedEvent".
 */
export interface PausedEvent {
type: "paused"
}
/**
 * The seat must draw a penalty.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PenaltyEvent".
 */
export interface PenaltyEvent {
count: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "penalty"
}
/**
 * placings: the seat went out of the deal (or, at its end, is left) with this place.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PlacedEvent".
 */
export interface PlacedEvent {
place: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "placed"
}
/**
 * Cards were played.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PlayEvent".
 */
export interface PlayEvent {
/**
 * Items: a card code (docs/cards.md)
 */
cards: string[]
color?: (string | null)
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
target?: (number | null)
type: "play"
}
/**
 * One claim of a race (fairRaces): its place and timing in ms. ``seat`` and ``type``
 * are left out for a losing play (they would tell what the claimant holds).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RaceClaim".
 */
export interface RaceClaim {
/**
 * the connection's credited round trip (capped)
 */
delay: (number | null)
rank: number
/**
 * ms from the change to the claim's arrival
 */
raw: (number | null)
/**
 * raw less delay: what was ranked
 */
reaction: (number | null)
/**
 * the round trips the credit came from
 */
rtt?: (RaceRtt | null)
seat?: (number | null)
/**
 * faster than a person reacts
 */
superhuman: boolean
tie: boolean
type?: (string | null)
}
/**
 * Claims on one position were ranked (fairRaces): the winner's change carries this.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RaceEvent".
 */
export interface RaceEvent {
/**
 * the `moves` the claims answered
 */
at: number
claims: RaceClaim[]
type: "race"
/**
 * ms the claims were held
 */
window: number
/**
 * a seat number, 0..n-1 clockwise
 */
winner: number
}
/**
 * The seat is ready for the next deal (the host deals it).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ReadyEvent".
 */
export interface ReadyEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "ready"
}
/**
 * The discard pile became the draw pile.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ReshuffleEvent".
 */
export interface ReshuffleEvent {
cards: number
type: "reshuffle"
}
/**
 * The direction changed.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ReverseEvent".
 */
export interface ReverseEvent {
count?: number
direction: number
type: "reverse"
}
/**
 * The room is gone (nobody was there).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RoomEndedEvent".
 */
export interface RoomEndedEvent {
reason: string
type: "roomEnded"
}
/**
 * shuffleSeats: the seats were shuffled; `order[seat]` is that player's former seat.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SeatingEvent".
 */
export interface SeatingEvent {
/**
 * Items: a seat number, 0..n-1 clockwise
 */
order: number[]
type: "seating"
}
/**
 * The host changed the room's settings.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SettingsEvent".
 */
export interface SettingsEvent {
type: "settings"
}
/**
 * Wild Shuffle Hands: the hands were dealt anew.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ShuffleHandsEvent".
 */
export interface ShuffleHandsEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "shuffleHands"
}
/**
 * DrukUNO: a seat drinks.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SipEvent".
 */
export interface SipEvent {
count: number
reason: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "sip"
}
/**
 * Sips given.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SipsEvent".
 */
export interface SipsEvent {
count: number
reason: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "sips"
}
/**
 * The seat was skipped.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SkipEvent".
 */
export interface SkipEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "skip"
}
/**
 * The match started.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "StartEvent".
 */
export interface StartEvent {
matchId: string
type: "start"
}
/**
 * Two seats swapped hands.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SwapHandsEvent".
 */
export interface SwapHandsEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
/**
 * a seat number, 0..n-1 clockwise
 */
target: number
type: "swapHands"
}
/**
 * UNO Rommy: a joker swapped out of a meld.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SwapJokerEvent".
 */
export interface SwapJokerEvent {
/**
 * a card code (docs/cards.md)
 */
card: string
/**
 * a card code (docs/cards.md)
 */
joker: string
jokerOwner?: (number | null)
meld: number
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "swapJoker"
}
/**
 * UNO Rommy: the top discard taken.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TakeDiscardEvent".
 */
export interface TakeDiscardEvent {
/**
 * a card code (docs/cards.md)
 */
card: string
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "takeDiscard"
}
/**
 * UNO Rommy: the discard pile taken.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TakePileEvent".
 */
export interface TakePileEvent {
/**
 * Items: a card code (docs/cards.md)
 */
cards: string[]
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "takePile"
}
/**
 * The seat's decision ran out; the room played it.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TimeoutEvent".
 */
export interface TimeoutEvent {
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
type: "timeout"
}
/**
 * The room acted itself (e.g. dealt the next deal).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TimerEvent".
 */
export interface TimerEvent {
action: string
type: "timer"
}
/**
 * Bottle UNO: a card was turned.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "TurnCardEvent".
 */
export interface TurnCardEvent {
action?: (string | null)
/**
 * a card code (docs/cards.md)
 */
card: string
/**
 * the sips each receiver drinks (0: none)
 */
count: number
direction?: (number | null)
everyone?: (boolean | null)
/**
 * a seat number, 0..n-1 clockwise
 */
seat: number
side?: (("left" | "right") | null)
skipped?: (number | null)
target?: (number | null)
type: "turnCard"
}
/**
 * The host lifted a kick's ban.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "UnbanEvent".
 */
export interface UnbanEvent {
name: string
type: "unban"
}
/**
 * The table goes on; every running clock got the paused `added` ms back.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "UnpausedEvent".
 */
export interface UnpausedEvent {
added: number
type: "unpaused"
}
/**
 * A spectator socket closed.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "UnwatchEvent".
 */
export interface UnwatchEvent {
type: "unwatch"
}
/**
 * A spectator socket opened.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "WatchEvent".
 */
export interface WatchEvent {
type: "watch"
}
/**
 * The spectator count the views show was refreshed.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "WatchersEvent".
 */
export interface WatchersEvent {
count: number
type: "watchers"
}
/**
 * ``add`` or ``update``: the room as ``GET /api/rooms/{id}`` shows it; ``remove``: it
 * left the list, and why (``full``, ``started``, ``over``, ``private``, ``empty``: nobody
 * is in it any more, ``closed``).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LobbyChange".
 */
export interface LobbyChange {
op: ("add" | "update" | "remove")
reason?: (("full" | "started" | "over" | "private" | "empty" | "closed") | null)
room?: (RoomSummary | null)
roomId: string
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RoomSummary".
 */
export interface RoomSummary {
absentAfter?: number
/**
 * names the host kicked
 */
bans?: string[]
createdAt: number
fairRaces?: boolean
/**
 * the hosting seat (None: no seat hosts)
 */
hostSeat?: (number | null)
name: string
nextDealDelay?: number
players: PlayerSummary[]
private: boolean
/**
 * its matches are rated (docs/ratings.md)
 */
rated?: boolean
roomId: string
rules: {
[k: string]: unknown
}
seats: number
seq?: (number | null)
spectators: boolean
/**
 * lobby, playing or over
 */
status: string
timeBank?: number
turnSeconds?: (number | "off")
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PlayerSummary".
 */
export interface PlayerSummary {
/**
 * the autopilot plays the seat meanwhile
 */
away?: boolean
/**
 * a bot's level: the room plays the seat
 */
bot?: (string | null)
connected: boolean
/**
 * its player left mid-match; a bot plays on
 */
left?: boolean
name: string
/**
 * an account's seat: its rating
 */
rating?: (SeatRating | null)
seat: number
}
/**
 * What changed in the lobby since ``seq - 1``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LobbyMessage".
 */
export interface LobbyMessage {
/**
 * of the rooms open to join (`rooms`)
 */
changes: LobbyChange[]
epoch: string
/**
 * of the running games (`playing`)
 */
playingChanges?: LobbyChange[]
seq: number
ts: number
type: "lobby"
}
/**
 * Answered with ``pong {ts}``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LobbyPing".
 */
export interface LobbyPing {
type: "ping"
}
/**
 * After a reconnect: the last lobby change you hold and its feed's ``epoch``.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LobbyResume".
 */
export interface LobbyResume {
epoch?: (string | null)
lastSeq: number
type: "resume"
}
/**
 * Every public room open to join, on connect and when a resume cannot be served.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LobbySnapshot".
 */
export interface LobbySnapshot {
/**
 * the feed this seq counts in
 */
epoch: string
/**
 * running public games, to watch
 */
playing?: RoomSummary[]
protocol: "uno.v1"
rooms: RoomSummary[]
seq: number
ts: number
type: "snapshot"
}
/**
 * Before the first deal (``phase: "lobby"``).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "LobbyView".
 */
export interface LobbyView {
/**
 * server ms when the decision's turn time ends and its time bank starts (the bank runs until `deadline`), or null
 */
bankFrom?: (number | null)
/**
 * the colour in force
 */
color: (string | null)
/**
 * server ms when the current decision times out
 */
deadline?: (number | null)
/**
 * whose decision that is
 */
deadlineSeat?: (number | null)
direction: (1 | -1)
drawPile: number
/**
 * your cards, in the order you hold them
 * 
 * Items: a card code (docs/cards.md)
 */
hand: string[]
legal: LegalEntry[]
/**
 * cards the next draw takes (a stacked penalty)
 */
pendingDraw: number
phase: "lobby"
players: Player[]
room: RoomInfo
rules: Rules
/**
 * the seq of the last change this view includes
 */
seq: number
shuffle?: ShuffleInfo2
top: (string | null)
turn: (number | null)
/**
 * your seat; null for spectators
 */
you: (number | null)
}
/**
 * the verifiable shuffle (docs/fairness.md)
 */
export interface ShuffleInfo2 {
commitment?: (string | null)
deal?: (number | null)
next?: (ShuffleNext | null)
revealed?: (ShuffleReveal | null)
}
/**
 * One RFC 6902 operation. The server replaces, adds or removes top-level keys of the
 * view (``/hand``, ``/players``); ``""`` replaces the whole view.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PatchOp".
 */
export interface PatchOp {
from?: (string | null)
op: ("add" | "remove" | "replace" | "move" | "copy" | "test")
path: string
value?: {
[k: string]: unknown
}
}
/**
 * One accepted change: ``ops`` (RFC 6902) turn your view at ``seq - 1`` into the view at
 * ``seq``; ``events`` say what happened, as far as you may see it.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PatchMessage".
 */
export interface PatchMessage {
/**
 * only on a socket opened with `ack=patch`: the `id` of this socket's action that made this change, in place of a separate `ack {ref, seq}` with this `seq`
 */
ack?: (string | null)
events: (JoinEvent | LeaveEvent | KickEvent | UnbanEvent | TimeoutEvent | AutoEvent | AwayEvent | BackEvent | HostEvent | ReadyEvent | ClockResumedEvent | PausedEvent | UnpausedEvent | MatchEndedEvent | RoomEndedEvent | ConnectEvent | DisconnectEvent | WatchEvent | UnwatchEvent | WatchersEvent | SettingsEvent | StartEvent | SeatingEvent | EntropyEvent | TimerEvent | RaceEvent | DealEvent | DealerDrawEvent | FirstCardEvent | FirstCardReshuffledEvent | PlayEvent | JumpInEvent | DrawEvent | PassEvent | MisplayEvent | HandLimitEvent | KnockedOutEvent | PlacedEvent | ClockOutEvent | BombEvent | BlindPlayEvent | PenaltyEvent | SkipEvent | ReverseEvent | DeflectEvent | ReshuffleEvent | CallUnoEvent | CatchUnoEvent | ChallengeEvent | ChooseColorEvent | SwapHandsEvent | PassHandsEvent | ShuffleHandsEvent | FlipEvent | KeepEvent | DiscardEvent | SipEvent | SipsEvent | DealOverEvent | MatchOverEvent | MeldEvent | LayOffEvent | TakeDiscardEvent | TakePileEvent | DiscardCardEvent | SwapJokerEvent | TurnCardEvent)[]
ops: PatchOp[]
seq: number
ts: number
type: "patch"
}
/**
 * Answers ``ping`` with the server's clock (ms since the epoch) when it was read: with
 * the send and receive times of the ping, ``ts - (sent + received) / 2`` estimates the
 * offset of the server's clock from yours.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "PongMessage".
 */
export interface PongMessage {
ts: number
type: "pong"
}
/**
 * Someone sent a quick emote (as ``ChatSaid``, with ``emote`` instead of text).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ReactionSent".
 */
export interface ReactionSent {
emote: string
name: (string | null)
seat: (number | null)
spectator: boolean
ts: number
type: "reaction"
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "Meld".
 */
export interface Meld {
/**
 * the card each one stands for
 * 
 * Items: a card code (docs/cards.md)
 */
as: string[]
/**
 * Items: a card code (docs/cards.md)
 */
cards: string[]
/**
 * set or run
 */
kind: string
/**
 * who laid each card
 * 
 * Items: a seat number, 0..n-1 clockwise
 */
seats: number[]
}
/**
 * UNO Rommy: melds on the table, a draw step then a play step.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "RommyView".
 */
export interface RommyView {
/**
 * server ms when the decision's turn time ends and its time bank starts (the bank runs until `deadline`), or null
 */
bankFrom?: (number | null)
/**
 * the colour in force
 */
color: (string | null)
/**
 * server ms when the current decision times out
 */
deadline?: (number | null)
/**
 * whose decision that is
 */
deadlineSeat?: (number | null)
deal: number
dealScores: ((number | null)[] | null)
dealer: (number | null)
direction: (1 | -1)
/**
 * Items: a card code (docs/cards.md)
 */
discard: string[]
drawPile: number
/**
 * the card you just drew, while you may play it
 */
drawn: (string | null)
drinks: (number[] | null)
game: "rommy"
/**
 * your cards, in the order you hold them
 * 
 * Items: a card code (docs/cards.md)
 */
hand: string[]
legal: LegalEntry[]
matchOver: boolean
melds: Meld[]
/**
 * actions applied in this match; send it as `at`
 */
moves: number
mustMeld: boolean
/**
 * cards the next draw takes (a stacked penalty)
 */
pendingDraw: number
phase: ("playing" | "dealOver" | "matchOver")
players: Player[]
/**
 * per seat, the points left in its hand (null until the deal is over)
 */
pointsInHand: (number[] | null)
/**
 * per seat, the points of the cards it melded (null until the deal is over)
 */
pointsLaid: (number[] | null)
/**
 * every hand, after a deal
 */
reveal: (string[][] | null)
room: RoomInfo
rules: Rules
/**
 * the seq of the last change this view includes
 */
seq: number
shuffle?: ShuffleInfo3
sips: Sip[]
/**
 * draw, then play
 */
step: string
stock: number
top: (string | null)
totals: number[]
turn: (number | null)
/**
 * a seat with one card that did not call UNO
 */
unoExposed: (number | null)
winner: (number | null)
/**
 * your seat; null for spectators
 */
you: (number | null)
}
/**
 * the verifiable shuffle (docs/fairness.md)
 */
export interface ShuffleInfo3 {
commitment?: (string | null)
deal?: (number | null)
next?: (ShuffleNext | null)
revealed?: (ShuffleReveal | null)
}
/**
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "DrinksTally".
 */
export interface DrinksTally {
byReason: {
[k: string]: number
}
total: number
}
/**
 * The server measuring the connection: answer ``pong {n}`` with the same ``n`` at
 * once (a few times at connect, then every second; a seat's socket in a room with
 * ``fairRaces`` only).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "ServerPing".
 */
export interface ServerPing {
n: number
type: "ping"
}
/**
 * The shedding games: classic UNO and the presets built on it (house, druk, ...).
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SheddingView".
 */
export interface SheddingView {
/**
 * server ms when the decision's turn time ends and its time bank starts (the bank runs until `deadline`), or null
 */
bankFrom?: (number | null)
/**
 * the colour in force
 */
color: (string | null)
/**
 * server ms when the current decision times out
 */
deadline?: (number | null)
/**
 * whose decision that is
 */
deadlineSeat?: (number | null)
deal: number
dealScores: ((number | null)[] | null)
dealer: (number | null)
direction: (1 | -1)
draftPile: number
drawPile: number
/**
 * the card you just drew, while you may play it
 */
drawn: (string | null)
drinks: (DrinksTally[] | null)
/**
 * UNO Duo: the colour you may dump
 */
dumpColor: (string | null)
/**
 * a Wild Draw Four's colour must be followed
 */
followColor: boolean
/**
 * your cards, in the order you hold them
 * 
 * Items: a card code (docs/cards.md)
 */
hand: string[]
legal: LegalEntry[]
matchOver: boolean
/**
 * actions applied in this match; send it as `at`
 */
moves: number
/**
 * UNO Duo draft: the card offered to you
 */
offer: (string | null)
/**
 * cards the next draw takes (a stacked penalty)
 */
pendingDraw: number
/**
 * the draw family pending (what stacks on it), or null
 */
pendingKind?: (string | null)
phase: ("draft" | "chooseColor" | "playing" | "dealOver" | "matchOver")
players: Player[]
/**
 * every hand, after a deal
 */
reveal: (string[][] | null)
room: RoomInfo
rules: Rules
/**
 * the last deal's seed, once the match is over
 */
seed: (string | null)
/**
 * SHA-256 of the state's seed (the deal's), hex
 */
seedCommitment: string
/**
 * the seq of the last change this view includes
 */
seq: number
/**
 * handReveal: per seat its cards if shown to all, else null
 */
shownHands?: ((string[] | null)[] | null)
shuffle?: ShuffleInfo4
/**
 * UNO Flip: the side up
 */
side: ("light" | "dark")
/**
 * teams: `of` (each seat's team) and each team's `totals`
 */
teams?: ({
[k: string]: number[]
} | null)
top: (string | null)
totals: number[]
turn: (number | null)
/**
 * the seats showing as having called UNO while the deal is on
 * 
 * Items: a seat number, 0..n-1 clockwise
 */
unoCalled: number[]
/**
 * a seat with one card that did not call UNO
 */
unoExposed: (number | null)
winner: (number | null)
/**
 * your seat; null for spectators
 */
you: (number | null)
}
/**
 * the verifiable shuffle (docs/fairness.md)
 */
export interface ShuffleInfo4 {
commitment?: (string | null)
deal?: (number | null)
next?: (ShuffleNext | null)
revealed?: (ShuffleReveal | null)
}
/**
 * The whole view; on connect (already including this connection) and on resync.
 * 
 * This interface was referenced by `UnoProtocol`'s JSON-Schema
 * via the `definition` "SnapshotMessage".
 */
export interface SnapshotMessage {
/**
 * the protocol version of this socket
 */
protocol: "uno.v1"
seq: number
ts: number
type: "snapshot"
view: (LobbyView | SheddingView | RommyView | BottleView)
}
