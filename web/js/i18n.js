// English and Danish UI text.
//
// Every visible string goes through t(), so switching language is re-rendering. Option
// help comes from the server in English; the Danish lines for the options we know live
// here and fall back to the server's English for options added later.

const STRINGS = {
  en: {
    "app.title": "UNO",
    "app.skip": "Skip to content",
    "lang.label": "Language",
    "lang.en": "English",
    "lang.da": "Dansk",
    "nav.lobby": "Lobby",

    "lobby.name": "Your name",
    "lobby.namePlaceholder": "e.g. Anna",
    "lobby.needName": "Please enter your name first.",
    "lobby.openRooms": "Open rooms",
    "lobby.noRooms": "No open rooms right now. Create one below.",
    "lobby.refresh": "Refresh",
    "lobby.join": "Join",
    "lobby.watch": "Watch",
    "lobby.seats": "{taken} of {seats} seats taken",
    "lobby.started": "playing",
    "lobby.joinByCode": "Join with a code",
    "lobby.code": "Room code",
    "lobby.codeHelp": "The code the host shared with you (or a room link).",
    "lobby.create": "Create a room",
    "lobby.roomName": "Room name",
    "lobby.roomNameDefault": "{name}'s table",
    "lobby.seatsLabel": "Seats",
    "lobby.seatsHelp": "How many players (2-10).",
    "lobby.private": "Private: hidden from the list, joined with the code",
    "lobby.createButton": "Create room",
    "lobby.notFound": "No room with that code.",

    "rules.title": "Rules",
    "rules.preset": "Preset",
    "rules.group.play": "Play",
    "rules.group.deck": "Deck",
    "rules.group.scoring": "Scoring and the match",
    "rules.group.druk": "DrukUNO",
    "rules.group.drinks": "Drinks (adults only)",
    "rules.group.duo": "UNO Duo",
    "rules.group.flip": "UNO Flip",
    "rules.default": "default: {value}",
    "rules.range": "{min}-{max}",
    "rules.rangeStep": "{min}-{max}, step {step}",
    "rules.on": "on",
    "rules.off": "off",
    "rules.changed": "changed from the preset",
    "rules.reset": "Reset to the preset",
    "preset.classic": "Classic",
    "preset.house": "House rules",
    "preset.oneAndDone": "One and done",
    "preset.knockout": "Knockout",
    "preset.druk": "DrukUNO",
    "preset.helsinki": "DrukUNO, Helsinki rules",
    "preset.warszawa": "DrukUNO, Warszawa rules",
    "preset.duo": "UNO Duo (2 players)",
    "preset.flip": "UNO Flip",
    "preset.rommy": "UNO Rommy",
    "preset.bottle": "Bottle UNO",
    "presetHelp.classic": "The official rules: play to 500 points.",
    "presetHelp.druk": "Several cards at once, stacking, jump-in; Wild Draw Four makes you follow its colour.",
    "presetHelp.helsinki": "DrukUNO, draw until you can play, and a 0 passes hands against the play.",
    "presetHelp.warszawa": "Helsinki rules, and a 7 forces a hand swap.",
    "presetHelp.duo": "Two players: a drafted deal, Draw Two volleys, lowest score wins.",
    "presetHelp.flip": "Double-sided cards: a Flip card turns every card to its dark side.",
    "presetHelp.house": "Stacking, jump-in, seven-zero and draw until you can play.",
    "presetHelp.oneAndDone": "One deal, no scoring: the first player out wins.",
    "presetHelp.knockout": "Own hand counts; over the target you are out; last one left wins.",

    "room.code": "Room code",
    "room.share": "Share the code or this page's link with the other players.",
    "room.seats": "Seats",
    "room.emptySeat": "empty seat",
    "room.you": "you",
    "room.host": "host",
    "room.start": "Start the game",
    "room.kick": "Remove {name}",
    "room.waitingHost": "Waiting for the host to start the game…",
    "room.needPlayers": "At least two players are needed to start.",
    "room.takeSeat": "Take a seat",
    "room.watching": "You are watching this room.",
    "room.gone": "This room does not exist (any more).",
    "room.rules": "Rules: {preset}",
    "room.kicked": "You were removed from the room.",

    "table.yourTurn": "Your turn",
    "table.turnOf": "{name}'s turn",
    "table.clockwise": "Play goes clockwise",
    "table.counterClockwise": "Play goes counter-clockwise",
    "table.drawPile": "Draw pile, {n} cards",
    "table.draw": "Draw",
    "table.takePenalty": "Take {n}",
    "table.pass": "Pass",
    "table.keep": "Keep it and pass",
    "table.uno": "UNO!",
    "table.unoArmed": "UNO will be called with your next play",
    "table.catch": "Catch {name}",
    "table.challenge": "Challenge",
    "table.challengePrompt": "A Wild Draw Four was played on you: challenge it, or take {n}.",
    "table.pending": "Penalty +{n}",
    "table.color": "Colour in play: {color}",
    "table.topCard": "Top card: {card}",
    "table.chooseColor": "Choose a colour",
    "table.chooseTarget": "Swap hands with whom?",
    "table.cancel": "Cancel",
    "table.jumpIn": "Jump in! You hold an exact copy of the top card.",
    "table.cards": "{n} cards",
    "table.card1": "1 card",
    "table.connected": "online",
    "table.disconnected": "offline",
    "table.out": "out",
    "table.score": "{n} pts",
    "table.log": "What happened",
    "table.hand": "Your hand",
    "table.handCount": "Your hand, {n} cards",
    "table.spectating": "You are watching; hands are hidden.",
    "table.deal": "Deal {n}",
    "table.dealer": "dealer",
    "table.drawnPlayable": "You drew {card}: play it or keep it.",
    "table.mustChooseColor": "Name the colour for the first card.",
    "table.sips": "{n} sips",
    "table.draft": "Your draft: keep this card, or discard it and keep the next.",
    "table.keepCard": "Keep",
    "table.discardCard": "Discard",
    "table.playSelected": "Play",
    "table.addCards": "Play more cards with {card}?",
    "action.turnCard": "Turn a card",

    "summary.dealOver": "Deal {n} is over",
    "summary.matchOver": "The match is over",
    "summary.wentOut": "{name} went out",
    "summary.winner": "{name} wins the match",
    "summary.cardsLeft": "Cards left",
    "summary.points": "This deal",
    "summary.total": "Total",
    "summary.player": "Player",
    "summary.place": "Place",
    "summary.scoreboard": "Scoreboard",
    "summary.nextDeal": "Next deal",
    "summary.none": "none",
    "summary.backToLobby": "Back to the lobby",

    "drinks.title": "Drinking rules",
    "drinks.question": "This room keeps a drinking tally. Are you of legal drinking age where you are?",
    "drinks.yes": "Yes, I am",
    "drinks.no": "No",
    "room.leave": "Leave the room",
    "conn.connecting": "Connecting…",
    "conn.online": "Connected",
    "conn.offline": "Connection lost, retrying in {s} s…",
    "conn.failed": "Could not connect: {why}",

    "color.R": "red",
    "color.G": "green",
    "color.B": "blue",
    "color.Y": "yellow",
    "color.P": "pink",
    "color.T": "teal",
    "color.O": "orange",
    "color.V": "violet",
    "rank.S": "Skip",
    "rank.R": "Reverse",
    "rank.+2": "Draw Two",
    "rank.+1": "Draw One",
    "rank.+5": "Draw Five",
    "rank.SE": "Skip Everyone",
    "rank.F": "Flip",
    "card.colored": "{color} {rank}",
    "card.W": "Wild",
    "card.W+4": "Wild Draw Four",
    "card.W+8": "Wild Draw Eight",
    "card.A+2": "Everybody Draws Two",
    "card.WSH": "Wild Shuffle Hands",
    "card.WC": "Wild Customizable",
    "card.W+2": "Wild Draw Two",
    "card.WDC": "Wild Draw Colour",
    "card.back": "face-down card",
    "card.playable": "playable",

    "event.play": "{name} played {cards}",
    "event.playColor": "{name} played {cards} and chose {color}",
    "event.jumpIn": "{name} jumped in with {cards}",
    "event.draw": "{name} drew {n}",
    "event.drawYou": "You drew {cards}",
    "event.pass": "{name} passed",
    "event.skip": "{name} was skipped",
    "event.reverse": "Direction reversed",
    "event.penalty": "{name} took {n} penalty cards",
    "event.callUno": "{name} called UNO!",
    "event.catchUno": "{name} caught {target} without UNO",
    "event.challenge": "{name} challenged the Wild Draw Four",
    "event.challengeGuilty": "{name} challenged: {target} was bluffing",
    "event.challengeInnocent": "{name} challenged: {target} was innocent",
    "event.chooseColor": "{name} chose {color}",
    "event.swap": "{name} swapped hands with {target}",
    "event.rotate": "Every hand moved on",
    "event.reshuffle": "The discard pile was shuffled into a new draw pile",
    "event.deal": "Deal {n} is dealt",
    "event.firstCard": "First card: {cards}",
    "event.dealOver": "{name} went out",
    "event.matchOver": "The match is over",
    "event.dealerDraw": "Everyone drew a card to choose the dealer",
    "event.knockedOut": "Knocked out: {names}",
    "event.firstCardBack": "{cards} turned up first went back into the pile",
    "event.settings": "The host changed the room's settings",
    "event.join": "{name} sat down",
    "event.leave": "{name} left",
    "event.kick": "{name} was removed",
    "event.connect": "{name} is online",
    "event.disconnect": "{name} went offline",
    "event.start": "The game started",
    "event.other": "{type}",

    "error.title": "Not allowed",
    "error.not_your_turn": "It is not your turn.",
    "error.card_not_playable": "That card matches neither the colour nor the number or symbol.",
    "error.card_not_in_hand": "You do not hold that card.",
    "error.too_late": "Too late: the table moved on before your action arrived.",
    "error.color_required": "Choose a colour for the wild card.",
    "error.bad_color": "That is not a colour you can name.",
    "error.only_drawn_card": "After drawing you may play only the card you drew.",
    "error.penalty_pending": "A draw penalty is waiting: stack a matching card or take the cards.",
    "error.already_drew": "You have already drawn this turn.",
    "error.cannot_pass": "You can only pass after drawing.",
    "error.wild_draw_four_restricted": "A Wild Draw Four may not be played while you hold a card of the colour in play.",
    "error.action_finish_forbidden": "Your last card must be a number card.",
    "error.nothing_to_challenge": "There is no Wild Draw Four for you to challenge.",
    "error.nothing_to_catch": "That player has nothing to be caught for.",
    "error.nothing_to_call": "Call UNO as you play your next-to-last card.",
    "error.uno_penalty_off": "This room has no penalty for a missed UNO call.",
    "error.one_card_only": "Play one card at a time in this room.",
    "error.target_required": "Choose whom to swap hands with.",
    "error.bad_target": "You cannot pick that player.",
    "error.knocked_out": "You are knocked out of this match.",
    "error.wrong_phase": "That is not possible at this point of the game.",
    "error.bad_action": "The server did not understand that action.",
    "error.bad_cards": "The server did not understand those cards.",
    "error.unknown_card": "That is not a card of this game.",
    "error.unknown_action": "The server does not know that action.",
    "error.not_host": "Only the host can do that.",
    "error.not_seated": "Spectators cannot play.",
    "error.spectator": "Spectators cannot play.",
    "error.room_full": "The room is full.",
    "error.room_not_found": "That room does not exist.",
    "error.match_in_progress": "A match is in progress.",
    "error.not_playing": "The game has not started.",
    "error.not_enough_players": "At least two players are needed to start.",
    "error.seat_empty": "That seat is empty.",
    "error.bad_code": "That room code is wrong.",
    "error.bad_token": "This browser no longer holds a seat in the room.",
    "error.no_spectators": "This room does not allow spectators.",
    "error.rate_limited": "Slow down a little.",
    "error.too_large": "That message was too large.",
    "error.shutting_down": "The server is restarting; try again in a moment.",
    "error.network": "The server cannot be reached.",
    "error.unknown": "The server refused: {message}",
  },
  da: {
    "app.title": "UNO",
    "app.skip": "Spring til indhold",
    "lang.label": "Sprog",
    "lang.en": "English",
    "lang.da": "Dansk",
    "nav.lobby": "Lobby",

    "lobby.name": "Dit navn",
    "lobby.namePlaceholder": "f.eks. Anna",
    "lobby.needName": "Skriv dit navn først.",
    "lobby.openRooms": "Åbne borde",
    "lobby.noRooms": "Ingen åbne borde lige nu. Opret et herunder.",
    "lobby.refresh": "Opdater",
    "lobby.join": "Sæt dig",
    "lobby.watch": "Se med",
    "lobby.seats": "{taken} af {seats} pladser taget",
    "lobby.started": "i gang",
    "lobby.joinByCode": "Deltag med en kode",
    "lobby.code": "Bordkode",
    "lobby.codeHelp": "Koden værten har delt med dig (eller et link til bordet).",
    "lobby.create": "Opret et bord",
    "lobby.roomName": "Bordets navn",
    "lobby.roomNameDefault": "{name}s bord",
    "lobby.seatsLabel": "Pladser",
    "lobby.seatsHelp": "Hvor mange spillere (2-10).",
    "lobby.private": "Privat: vises ikke på listen, man deltager med koden",
    "lobby.createButton": "Opret bord",
    "lobby.notFound": "Der er intet bord med den kode.",

    "rules.title": "Regler",
    "rules.preset": "Forvalg",
    "rules.group.play": "Spillet",
    "rules.group.deck": "Kortene",
    "rules.group.scoring": "Point og kampen",
    "rules.group.druk": "DrukUNO",
    "rules.group.drinks": "Druk (kun voksne)",
    "rules.group.duo": "UNO Duo",
    "rules.group.flip": "UNO Flip",
    "rules.default": "standard: {value}",
    "rules.range": "{min}-{max}",
    "rules.rangeStep": "{min}-{max}, i trin af {step}",
    "rules.on": "til",
    "rules.off": "fra",
    "rules.changed": "ændret fra forvalget",
    "rules.reset": "Nulstil til forvalget",
    "preset.classic": "Klassisk",
    "preset.house": "Husregler",
    "preset.oneAndDone": "Ét spil",
    "preset.knockout": "Knockout",
    "preset.druk": "DrukUNO",
    "preset.helsinki": "DrukUNO, Helsinki-regler",
    "preset.warszawa": "DrukUNO, Warszawa-regler",
    "preset.duo": "UNO Duo (2 spillere)",
    "preset.flip": "UNO Flip",
    "preset.rommy": "UNO Rommy",
    "preset.bottle": "Flaske-UNO",
    "presetHelp.classic": "De officielle regler: spil til 500 point.",
    "presetHelp.druk": "Flere kort på én gang, stabling, hop ind; Træk fire skal følges i farven.",
    "presetHelp.helsinki": "DrukUNO, træk til du kan lægge, og et 0 sender hænderne mod spilleretningen.",
    "presetHelp.warszawa": "Helsinki-regler, og et 7-tal tvinger et håndbytte.",
    "presetHelp.duo": "To spillere: kortene vælges på skift, Træk to-dueller, færrest point vinder.",
    "presetHelp.flip": "Dobbeltsidede kort: et Vend-kort vender alle kort om på den mørke side.",
    "presetHelp.house": "Stabling, hop ind, syv-nul og træk til du kan lægge.",
    "presetHelp.oneAndDone": "Ét spil uden point: den første der går ud vinder.",
    "presetHelp.knockout": "Egen hånd tæller; over målet er man ude; den sidste tilbage vinder.",

    "room.code": "Bordkode",
    "room.share": "Del koden eller linket til denne side med de andre spillere.",
    "room.seats": "Pladser",
    "room.emptySeat": "ledig plads",
    "room.you": "dig",
    "room.host": "vært",
    "room.start": "Start spillet",
    "room.kick": "Fjern {name}",
    "room.waitingHost": "Venter på at værten starter spillet…",
    "room.needPlayers": "Der skal mindst to spillere til.",
    "room.takeSeat": "Sæt dig",
    "room.watching": "Du ser med ved dette bord.",
    "room.gone": "Dette bord findes ikke (længere).",
    "room.rules": "Regler: {preset}",
    "room.kicked": "Du blev fjernet fra bordet.",

    "table.yourTurn": "Din tur",
    "table.turnOf": "{name}s tur",
    "table.clockwise": "Spillet går med uret",
    "table.counterClockwise": "Spillet går mod uret",
    "table.drawPile": "Bunken, {n} kort",
    "table.draw": "Træk",
    "table.takePenalty": "Tag {n}",
    "table.pass": "Stå over",
    "table.keep": "Behold og stå over",
    "table.uno": "UNO!",
    "table.unoArmed": "Der siges UNO med dit næste kort",
    "table.catch": "Grib {name}",
    "table.challenge": "Udfordr",
    "table.challengePrompt": "Du fik et Træk fire-kort: udfordr det, eller tag {n}.",
    "table.pending": "Straf +{n}",
    "table.color": "Farve i spil: {color}",
    "table.topCard": "Øverste kort: {card}",
    "table.chooseColor": "Vælg en farve",
    "table.chooseTarget": "Byt hånd med hvem?",
    "table.cancel": "Fortryd",
    "table.jumpIn": "Hop ind! Du har et helt magen til det øverste kort.",
    "table.cards": "{n} kort",
    "table.card1": "1 kort",
    "table.connected": "online",
    "table.disconnected": "offline",
    "table.out": "ude",
    "table.score": "{n} point",
    "table.log": "Hvad er der sket",
    "table.hand": "Din hånd",
    "table.handCount": "Din hånd, {n} kort",
    "table.spectating": "Du ser med; hænderne er skjulte.",
    "table.deal": "Spil {n}",
    "table.dealer": "giver",
    "table.drawnPlayable": "Du trak {card}: læg det eller behold det.",
    "table.mustChooseColor": "Vælg farven for det første kort.",
    "table.sips": "{n} slurke",
    "table.draft": "Dit valg: behold dette kort, eller kassér det og behold det næste.",
    "table.keepCard": "Behold",
    "table.discardCard": "Kassér",
    "table.playSelected": "Læg",
    "table.addCards": "Læg flere kort sammen med {card}?",
    "action.turnCard": "Vend et kort",

    "summary.dealOver": "Spil {n} er slut",
    "summary.matchOver": "Kampen er slut",
    "summary.wentOut": "{name} gik ud",
    "summary.winner": "{name} vinder kampen",
    "summary.cardsLeft": "Kort tilbage",
    "summary.points": "Dette spil",
    "summary.total": "I alt",
    "summary.player": "Spiller",
    "summary.place": "Plads",
    "summary.scoreboard": "Stilling",
    "summary.nextDeal": "Næste spil",
    "summary.none": "ingen",
    "summary.backToLobby": "Tilbage til lobbyen",

    "drinks.title": "Drikkeregler",
    "drinks.question": "Ved dette bord føres regnskab med slurke. Er du over den lovlige alder for alkohol, der hvor du er?",
    "drinks.yes": "Ja, det er jeg",
    "drinks.no": "Nej",
    "room.leave": "Forlad bordet",
    "conn.connecting": "Forbinder…",
    "conn.online": "Forbundet",
    "conn.offline": "Forbindelsen blev afbrudt, prøver igen om {s} s…",
    "conn.failed": "Kunne ikke forbinde: {why}",

    "color.R": "rød",
    "color.G": "grøn",
    "color.B": "blå",
    "color.Y": "gul",
    "color.P": "pink",
    "color.T": "turkis",
    "color.O": "orange",
    "color.V": "violet",
    "rank.S": "Spring over",
    "rank.R": "Retur",
    "rank.+2": "Træk to",
    "rank.+1": "Træk en",
    "rank.+5": "Træk fem",
    "rank.SE": "Spring alle over",
    "rank.F": "Vend",
    "card.colored": "{color} {rank}",
    "card.W": "Skift farve",
    "card.W+4": "Skift farve, træk fire",
    "card.W+8": "Skift farve, træk otte",
    "card.A+2": "Alle trækker to",
    "card.WSH": "Skift farve, bland hænder",
    "card.WC": "Joker med egen tekst",
    "card.W+2": "Skift farve, træk to",
    "card.WDC": "Skift farve, træk farve",
    "card.back": "kort med bagsiden op",
    "card.playable": "kan lægges",

    "event.play": "{name} lagde {cards}",
    "event.playColor": "{name} lagde {cards} og valgte {color}",
    "event.jumpIn": "{name} hoppede ind med {cards}",
    "event.draw": "{name} trak {n}",
    "event.drawYou": "Du trak {cards}",
    "event.pass": "{name} stod over",
    "event.skip": "{name} blev sprunget over",
    "event.reverse": "Retningen blev vendt",
    "event.penalty": "{name} tog {n} strafkort",
    "event.callUno": "{name} sagde UNO!",
    "event.catchUno": "{name} greb {target} uden UNO",
    "event.challenge": "{name} udfordrede Træk fire",
    "event.challengeGuilty": "{name} udfordrede: {target} bluffede",
    "event.challengeInnocent": "{name} udfordrede: {target} var uskyldig",
    "event.chooseColor": "{name} valgte {color}",
    "event.swap": "{name} byttede hånd med {target}",
    "event.rotate": "Alle hænder blev sendt videre",
    "event.reshuffle": "Kastebunken blev blandet til en ny bunke",
    "event.deal": "Spil {n} er givet",
    "event.firstCard": "Første kort: {cards}",
    "event.dealOver": "{name} gik ud",
    "event.matchOver": "Kampen er slut",
    "event.dealerDraw": "Alle trak et kort for at finde giveren",
    "event.knockedOut": "Slået ud: {names}",
    "event.firstCardBack": "{cards} vendt op først kom tilbage i bunken",
    "event.settings": "Værten ændrede bordets indstillinger",
    "event.join": "{name} satte sig",
    "event.leave": "{name} gik",
    "event.kick": "{name} blev fjernet",
    "event.connect": "{name} er online",
    "event.disconnect": "{name} gik offline",
    "event.start": "Spillet er startet",
    "event.other": "{type}",

    "error.title": "Ikke tilladt",
    "error.not_your_turn": "Det er ikke din tur.",
    "error.card_not_playable": "Det kort passer hverken i farve, tal eller symbol.",
    "error.card_not_in_hand": "Du har ikke det kort.",
    "error.too_late": "For sent: bordet nåede videre før din handling kom frem.",
    "error.color_required": "Vælg en farve til jokeren.",
    "error.bad_color": "Den farve kan du ikke vælge.",
    "error.only_drawn_card": "Efter et træk må du kun lægge kortet du trak.",
    "error.penalty_pending": "Der venter strafkort: stabl et passende kort eller tag kortene.",
    "error.already_drew": "Du har allerede trukket i denne tur.",
    "error.cannot_pass": "Du kan kun stå over efter at have trukket.",
    "error.wild_draw_four_restricted": "Træk fire må ikke lægges, mens du har et kort i farven i spil.",
    "error.action_finish_forbidden": "Dit sidste kort skal være et talkort.",
    "error.nothing_to_challenge": "Der er ingen Træk fire, du kan udfordre.",
    "error.nothing_to_catch": "Den spiller kan ikke gribes for noget.",
    "error.nothing_to_call": "Sig UNO når du lægger dit næstsidste kort.",
    "error.uno_penalty_off": "Ved dette bord er der ingen straf for glemt UNO.",
    "error.one_card_only": "Læg ét kort ad gangen ved dette bord.",
    "error.target_required": "Vælg hvem du bytter hånd med.",
    "error.bad_target": "Du kan ikke vælge den spiller.",
    "error.knocked_out": "Du er slået ud af denne kamp.",
    "error.wrong_phase": "Det kan man ikke på dette tidspunkt i spillet.",
    "error.bad_action": "Serveren forstod ikke den handling.",
    "error.bad_cards": "Serveren forstod ikke de kort.",
    "error.unknown_card": "Det kort findes ikke i dette spil.",
    "error.unknown_action": "Serveren kender ikke den handling.",
    "error.not_host": "Kun værten kan gøre det.",
    "error.not_seated": "Tilskuere kan ikke spille.",
    "error.spectator": "Tilskuere kan ikke spille.",
    "error.room_full": "Bordet er fuldt.",
    "error.room_not_found": "Det bord findes ikke.",
    "error.match_in_progress": "Der er en kamp i gang.",
    "error.not_playing": "Spillet er ikke startet.",
    "error.not_enough_players": "Der skal mindst to spillere til.",
    "error.seat_empty": "Den plads er tom.",
    "error.bad_code": "Bordkoden er forkert.",
    "error.bad_token": "Denne browser har ikke længere en plads ved bordet.",
    "error.no_spectators": "Ved dette bord må man ikke se med.",
    "error.rate_limited": "Lidt langsommere.",
    "error.too_large": "Beskeden var for stor.",
    "error.shutting_down": "Serveren genstarter; prøv igen om lidt.",
    "error.network": "Serveren kan ikke nås.",
    "error.unknown": "Serveren afviste: {message}",
  },
};

// Option labels and help in both languages; the English help repeats the engine's
// wording so a missing server description still reads well.
const OPTION_TEXT = {
  stacking: {
    en: ["Stacking", "Draw Two on Draw Two, Wild Draw Four on Wild Draw Four pass the growing penalty on"],
    da: ["Stabling", "Træk to på Træk to og Træk fire på Træk fire sender den voksende straf videre"],
  },
  jumpIn: {
    en: ["Jump-in", "Anyone holding an exact copy of the top card may play it out of turn"],
    da: ["Hop ind", "Den der har et kort helt magen til det øverste, må lægge det uden for tur"],
  },
  jumpInContinuesFrom: {
    en: ["After a jump-in", "Play continues from the jumper, or stays with the turn holder"],
    da: ["Efter et hop ind", "Spillet fortsætter fra den der hoppede ind, eller bliver hos den der havde tur"],
  },
  sevenZero: {
    en: ["Seven-zero", "A 7 swaps hands with a chosen player; a 0 passes every hand on"],
    da: ["Syv-nul", "Et 7-tal bytter hånd med en valgt spiller; et 0 sender alle hænder videre"],
  },
  zeroPassDirection: {
    en: ["Zero passes hands", "Which way hands pass when a 0 is played"],
    da: ["Nul sender hænder", "Hvilken vej hænderne går når der lægges et 0"],
  },
  drawToMatch: {
    en: ["Draw to match", "Draw until you can play instead of drawing one card"],
    da: ["Træk til du kan", "Træk til du kan lægge i stedet for at trække ét kort"],
  },
  drawToMatchCap: {
    en: ["Draw-to-match cap", "Most cards drawn under draw to match (0: no cap)"],
    da: ["Loft for træk til du kan", "Højst så mange kort trækkes (0: intet loft)"],
  },
  unoPenalty: {
    en: ["UNO penalty", "Cards drawn when caught not calling UNO (0: no penalty)"],
    da: ["UNO-straf", "Kort man trækker når man bliver grebet uden at sige UNO (0: ingen straf)"],
  },
  decks: {
    en: ["Decks", "Decks shuffled together (two for 7-10 players)"],
    da: ["Kortspil", "Antal kortspil blandet sammen (to til 7-10 spillere)"],
  },
  wildDrawFourChallenge: {
    en: ["Wild Draw Four challenge", "The victim of a Wild Draw Four may challenge it"],
    da: ["Udfordr Træk fire", "Den der rammes af Træk fire må udfordre det"],
  },
  wildDrawFourRestriction: {
    en: ["Wild Draw Four allowed", "When a Wild Draw Four may be played"],
    da: ["Træk fire tilladt", "Hvornår man må lægge Træk fire"],
  },
  firstCardWild: {
    en: ["Wild as first card", "The first player names the colour, or it is reshuffled"],
    da: ["Joker som første kort", "Den første spiller vælger farven, eller kortet blandes tilbage"],
  },
  firstCardWildDrawFour: {
    en: ["Wild Draw Four as first card", "It goes back and is reshuffled, or is buried in the pile"],
    da: ["Træk fire som første kort", "Det blandes tilbage, eller stikkes ind i bunken"],
  },
  forbidActionFinish: {
    en: ["Finish on a number", "The last card must be a number card"],
    da: ["Slut på et tal", "Det sidste kort skal være et talkort"],
  },
  matchMode: {
    en: ["Match", "Play to a target score, end after one deal, or knock out players over the target"],
    da: ["Kamp", "Spil til et pointmål, stop efter ét spil, eller slå spillere over målet ud"],
  },
  targetScore: {
    en: ["Target score", "The match ends when a total reaches this"],
    da: ["Pointmål", "Kampen slutter når en spiller når dette"],
  },
  roundLimit: {
    en: ["Deal limit", "End after this many deals (0: play to the target)"],
    da: ["Antal spil", "Stop efter så mange spil (0: spil til pointmålet)"],
  },
  scoringMode: {
    en: ["Scoring", "The winner scores everyone's hands (highest wins), or each scores their own (lowest wins)"],
    da: ["Pointgivning", "Vinderen får alles kort (flest point vinder), eller hver får sine egne (færrest vinder)"],
  },
  numberCards: {
    en: ["Number cards", "Number cards score their face value or ten"],
    da: ["Talkort", "Talkort giver deres pålydende eller ti point"],
  },
  actionValue: {
    en: ["Action card points", "Points for Skip, Reverse, Draw Two"],
    da: ["Point for handlingskort", "Point for Spring over, Retur, Træk to"],
  },
  wildValue: {
    en: ["Wild points", "Points for a Wild"],
    da: ["Point for joker", "Point for Skift farve"],
  },
  wildDrawFourValue: {
    en: ["Wild Draw Four points", "Points for a Wild Draw Four"],
    da: ["Point for Træk fire", "Point for Skift farve, træk fire"],
  },
  multiPlay: {
    en: ["Several cards at once", "Play several cards of one number, or one action type, at once"],
    da: ["Flere kort på én gang", "Læg flere kort med samme tal, eller samme slags handlingskort, på én gang"],
  },
  stackWildDrawFour: {
    en: ["Stack Wild Draw Fours", "With stacking, Wild Draw Fours stack too (not only Draw Twos)"],
    da: ["Stabl Træk fire", "Med stabling kan Træk fire også stables (ikke kun Træk to)"],
  },
  drawFourFollowColor: {
    en: ["Follow the Wild Draw Four", "After taking a Wild Draw Four you must play its colour, or draw up to 3 and pass"],
    da: ["Følg Træk fire", "Efter Træk fire skal du lægge dens farve, ellers trække op til 3 og stå over"],
  },
  firstCardPlayedByDealer: {
    en: ["Dealer plays the first card", "An action card turned up first acts as if the dealer had played it"],
    da: ["Giveren lægger første kort", "Et handlingskort vendt op først virker som om giveren havde lagt det"],
  },
  wildDrawEight: {
    en: ["Wild Draw Eight cards", "Wild Draw Eight cards added to the deck"],
    da: ["Træk otte-kort", "Antal Træk otte-kort lagt i bunken"],
  },
  everybodyDrawsTwo: {
    en: ["Everybody Draws Two cards", "Everybody Draws Two cards added to the deck"],
    da: ["Alle trækker to-kort", "Antal Alle trækker to-kort lagt i bunken"],
  },
  zeroPass: {
    en: ["Zero passes hands", "A 0 passes every hand on (without the 7 swap)"],
    da: ["Nul sender hænder", "Et 0 sender alle hænder videre (uden 7-byttet)"],
  },
  sevenSwap: {
    en: ["Seven swaps hands", "A 7 swaps hands with a chosen opponent (without the 0 pass)"],
    da: ["Syv bytter hånd", "Et 7-tal bytter hånd med en valgt modspiller (uden 0-videregivelsen)"],
  },
  swapOnLastCard: {
    en: ["Swap on the last card", "A 0 or 7 played as the last card still passes or swaps hands: no win"],
    da: ["Byt på sidste kort", "Et 0 eller 7 som sidste kort sender eller bytter stadig hænder: ingen sejr"],
  },
  penaltyDrawToMatch: {
    en: ["Draw to match after a penalty", "After a draw penalty keep drawing until a playable card comes, and you may play it"],
    da: ["Træk til du kan efter straf", "Efter strafkort trækker du videre til et kort kan lægges, og du må lægge det"],
  },
  drawnCardPlayable: {
    en: ["Play a drawn card", "A playable card you draw may be played at once (DrukUNO: drawing ends the turn)"],
    da: ["Læg et trukket kort", "Et kort du trækker, må lægges med det samme, hvis det passer (DrukUNO: et træk slutter turen)"],
  },
  drinks: {
    en: ["Drinking tally", "Keep a tally of sips (DrukUNO drinking rules)"],
    da: ["Tæl slurke", "Før regnskab med slurkene (DrukUNOs drikkeregler)"],
  },
  sipsAsPoints: {
    en: ["Points instead of sips", "Count the tally as points instead of sips"],
    da: ["Point i stedet for slurke", "Tæl regnskabet som point i stedet for slurke"],
  },
  dealMethod: {
    en: ["Dealing", "Deal seven each, or draft them (UNO Duo)"],
    da: ["Kortgivning", "Giv syv hver, eller vælg dem på skift (UNO Duo)"],
  },
  firstCardRules: {
    en: ["First card", "How the first card acts: the official rules or UNO Duo's"],
    da: ["Første kort", "Hvordan det første kort virker: de officielle regler eller UNO Duos"],
  },
  reverseDumpsColor: {
    en: ["Reverse dumps its colour", "A Reverse may be followed by every card of its colour in your hand (all or nothing)"],
    da: ["Retur tømmer farven", "Efter en Retur må du lægge alle dine kort i dens farve (alle eller ingen)"],
  },
  flipPiles: {
    en: ["Flip turns the piles", "A Flip turns the piles over (bottom card on top) or flips each card in place"],
    da: ["Vend vender bunkerne", "Et Vend-kort vender bunkerne om (nederste kort øverst) eller vender hvert kort på stedet"],
  },
  wildDrawFourPlaysAgain: {
    en: ["Wild Draw Four plays again", "The player of a Wild Draw Four takes another turn"],
    da: ["Træk fire giver ny tur", "Den der lægger Træk fire, får en tur mere"],
  },
};

const CHOICE_TEXT = {
  en: {
    jumper: "from the jumper",
    turnHolder: "stays with the turn holder",
    withPlay: "with the direction of play",
    againstPlay: "against the direction of play",
    noMatchingColor: "without a card of the colour in play",
    noPlayableCard: "without any other playable card",
    none: "always",
    firstPlayerChooses: "the first player names the colour",
    reshuffle: "reshuffle it",
    bury: "bury it in the pile",
    points: "play to the target score",
    oneAndDone: "one deal",
    knockout: "knockout",
    winnerCollects: "winner collects (highest wins)",
    ownHandCounts: "own hand counts (lowest wins)",
    faceValue: "face value",
    flatTen: "ten each",
    deal: "deal seven each",
    draft: "draft (UNO Duo)",
    classic: "the official rules",
    duo: "UNO Duo's rules",
    turnOver: "turn the piles over",
    flipInPlace: "flip each card in place",
  },
  da: {
    jumper: "fra den der hoppede ind",
    turnHolder: "bliver hos den der havde tur",
    withPlay: "med spilleretningen",
    againstPlay: "mod spilleretningen",
    noMatchingColor: "uden et kort i farven i spil",
    noPlayableCard: "uden noget andet kort der kan lægges",
    none: "altid",
    firstPlayerChooses: "første spiller vælger farven",
    reshuffle: "bland det tilbage",
    bury: "stik det ind i bunken",
    points: "spil til pointmålet",
    oneAndDone: "ét spil",
    knockout: "knockout",
    winnerCollects: "vinderen får det hele (flest vinder)",
    ownHandCounts: "egen hånd tæller (færrest vinder)",
    faceValue: "pålydende",
    flatTen: "ti hver",
    deal: "giv syv hver",
    draft: "vælg på skift (UNO Duo)",
    classic: "de officielle regler",
    duo: "UNO Duos regler",
    turnOver: "vend bunkerne om",
    flipInPlace: "vend hvert kort på stedet",
  },
};

export const LANGUAGES = ["en", "da"];
const STORAGE_KEY = "uno.lang";
// For the translation-completeness test.
export const CATALOGUES = { STRINGS, OPTION_TEXT, CHOICE_TEXT };
let current = initialLanguage();
const listeners = new Set();

function initialLanguage() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (LANGUAGES.includes(saved)) return saved;
  } catch {
    // localStorage can be unavailable (private mode); fall through to the browser's choice.
  }
  return (navigator.language || "en").toLowerCase().startsWith("da") ? "da" : "en";
}

export function language() {
  return current;
}

export function setLanguage(lang) {
  if (!LANGUAGES.includes(lang) || lang === current) return;
  current = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Not fatal: the choice just does not survive a reload.
  }
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

/** Call `fn(lang)` whenever the language changes. */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function has(key) {
  return Object.hasOwn(STRINGS[current], key) || Object.hasOwn(STRINGS.en, key);
}

/** The text for `key` with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const template = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** A refused action's code in words; unknown codes fall back to the server's message. */
export function errorText(code, message) {
  const key = `error.${code}`;
  if (code && has(key)) return t(key);
  // Codes may be namespaced ("rules/bad_value", "action/not_your_turn"): try the last part.
  const tail = code ? `error.${String(code).split("/").pop()}` : "";
  if (tail && has(tail)) return t(tail);
  return t("error.unknown", { message: message || code || "?" });
}

export function optionLabel(name) {
  return OPTION_TEXT[name]?.[current]?.[0] ?? OPTION_TEXT[name]?.en?.[0] ?? humanize(name);
}

export function optionHelp(name, serverHelp) {
  if (current !== "en" && OPTION_TEXT[name]?.[current]) return OPTION_TEXT[name][current][1];
  return serverHelp || OPTION_TEXT[name]?.en?.[1] || "";
}

export function choiceLabel(choice) {
  return CHOICE_TEXT[current][choice] ?? CHOICE_TEXT.en[choice] ?? humanize(choice);
}

export function presetLabel(name) {
  return has(`preset.${name}`) ? t(`preset.${name}`) : humanize(name);
}

/** "wildDrawFourValue" -> "Wild draw four value": a readable name for an unknown option. */
export function humanize(name) {
  const words = String(name)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
