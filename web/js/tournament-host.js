// The host console of a tournament (#/tournament/<id>/host): open check-in, start, pause
// and resume, the next round, re-seat two players, disqualify, correct a table's result
// with a reason, end early, take a withdrawn player back. Each button is one REST call
// with the host token kept in storage when the tournament was created, or the signed-in
// account's token when the account hosts it (any device it signs in on); the answer (the
// tournament) is shown at once, and the refusal's code is said in words. Withdrawals and
// tables the server cannot look after are lines here, asking for the host's decision.

import { signedIn } from "./accounts/client.js";

import { client } from "./client.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { showError } from "./lobby.js";
import { storage } from "./storage.js";
import { toast } from "./toast.js";

// The fewest players a table deals to (docs/tournaments.md: every preset a tournament uses).
const FEWEST = 2;

/**
 * @param {string} tournamentId
 * @param {object} page  tournament() (the shown tournament), names() (player id -> name),
 *   taken(doc) (show a host action's answer), rerender()
 */
export function hostConsole(tournamentId, page) {
  const form = {
    reseatA: "",
    reseatB: "",
    dqPlayer: "",
    dqReason: "",
    fixTable: "",
    fixReason: "",
    fix: {}, // pid -> {place, leftInHand, dealsWon} being edited
    confirmEnd: false,
  };
  // The host account's own token opens the console wherever it signs in.
  const hostAccount = () => {
    const account = signedIn();
    const owner = page.tournament()?.hostAccount;
    return account && owner && account.playerId === owner ? account : null;
  };
  const token = () => storage.tournament(tournamentId)?.hostToken || hostAccount()?.token || null;

  // `call(hostToken)`: the package's host action; `code` names it in the toast.
  async function act(code, call, done) {
    try {
      page.taken(await call(token()));
      if (done) toast(done, { code });
    } catch (err) {
      showError(err);
    }
  }

  function currentTables() {
    const log = page.tournament()?.roundLog || [];
    return log.length ? log[log.length - 1].tables : [];
  }

  function allTables() {
    return (page.tournament()?.roundLog || []).flatMap((r) => r.tables.map((table) => ({ ...table, round: r.number })));
  }

  function activePlayers() {
    return (page.tournament()?.players || []).filter((p) => p.status === "active");
  }

  function select(id, key, options, label, onChange) {
    return h("div", { class: "field" }, [
      h("label", { for: id }, [label]),
      h(
        "select",
        {
          id,
          "data-testid": id,
          "data-focus-key": id,
          onChange: (e) => {
            form[key] = e.target.value;
            onChange?.();
          },
        },
        [
          h("option", { value: "", selected: !form[key] }, ["–"]),
          ...options.map(([value, text]) => h("option", { value, selected: value === form[key] }, [text])),
        ],
      ),
    ]);
  }

  function text(id, key, label, max = 200) {
    return h("div", { class: "field" }, [
      h("label", { for: id }, [label]),
      h("input", {
        id,
        "data-testid": id,
        "data-focus-key": id,
        maxlength: max,
        value: form[key],
        onInput: (e) => {
          form[key] = e.target.value;
        },
      }),
    ]);
  }

  function button(testid, label, onClick, { primary = false, danger = false, disabled = false } = {}) {
    const kind = danger ? "danger" : primary ? "primary" : null;
    return h("button", { type: "button", class: kind, "data-testid": testid, disabled, onClick }, [label]);
  }

  function flow() {
    const tour = page.tournament();
    const running = tour.status === "running";
    const round = tour.roundLog?.[tour.roundLog.length - 1];
    const roundDone = !round || round.done;
    const buttons = [];
    if (tour.status === "registration") {
      if (!tour.checkIn) {
        buttons.push(button("host-open-check-in", t("host.openCheckIn"), () => act("check-in/open", (host) => client.openCheckIn(tournamentId, host), t("host.done.checkIn"))));
      }
      buttons.push(button("host-start", t("host.start"), () => act("start", (host) => client.startTournament(tournamentId, host), t("host.done.start")), { primary: true }));
    }
    if (running && !tour.paused) buttons.push(button("host-pause", t("host.pause"), () => act("pause", (host) => client.pauseTournament(tournamentId, host), t("host.done.pause"))));
    if (running && tour.paused) {
      buttons.push(button("host-resume", t("host.resume"), () => act("resume", (host) => client.resumeTournament(tournamentId, host), t("host.done.resume")), { primary: true }));
    }
    const canPlay = activePlayers().length;
    if (running && tour.round < tour.rounds) {
      // Disabled with its reason on the button: the round playing, a pause, too few left.
      const n = tour.round + 1;
      const why = !roundDone
        ? t("host.nextRoundWhy.running", { n, m: tour.round })
        : tour.paused
          ? t("host.nextRoundWhy.paused", { n })
          : canPlay < FEWEST
            ? t("host.nextRoundWhy.tooFew", { n, k: canPlay })
            : null;
      buttons.push(
        button(
          "host-next-round",
          why || t("host.nextRound", { n }),
          () => act("rounds", (host) => client.nextRound(tournamentId, n, host), t("host.done.nextRound")),
          { primary: !why, disabled: Boolean(why) },
        ),
      );
    }
    if (tour.status !== "over") {
      buttons.push(
        form.confirmEnd
          ? h("span", { class: "confirm" }, [
              h("span", {}, [t("host.endSure")]),
              button("host-end-confirm", t("host.endYes"), () => {
                form.confirmEnd = false;
                act("end", (host) => client.endTournament(tournamentId, host), t("host.done.end"));
              }, { danger: true }),
              button("host-end-cancel", t("table.cancel"), () => {
                form.confirmEnd = false;
                page.rerender();
              }),
            ])
          : button("host-end", t("host.end"), () => {
              form.confirmEnd = true;
              page.rerender();
            }),
      );
    }
    const hint =
      running && !roundDone
        ? t("host.roundRunning")
        : running && canPlay < FEWEST
          ? t("host.tooFew", { k: canPlay })
          : running && tour.round < tour.rounds
            ? t("host.roundReady")
            : null;
    return [h("div", { class: "actions" }, buttons), hint ? h("p", { class: "hint" }, [hint]) : null];
  }

  /** The withdrawn players, each with why (the last withdrawal in the log) and "Take back". */
  function withdrawnBox() {
    const tour = page.tournament();
    if (tour.status === "over") return null;
    const out = (tour.players || []).filter((p) => p.status === "withdrawn");
    if (!out.length) return null;
    const why = new Map();
    for (const entry of tour.audit || []) if (entry.action === "withdrawn") why.set(entry.playerId, entry.absent);
    return h("fieldset", { class: "host-box", "data-testid": "host-withdrawn" }, [
      h("legend", {}, [t("host.withdrawnTitle")]),
      h(
        "ul",
        { class: "host-lines" },
        out.map((p) =>
          h("li", { "data-player-id": p.playerId, "data-absent": why.get(p.playerId) ? "1" : "0" }, [
            h("span", {}, [t(why.get(p.playerId) ? "host.withdrawnAbsent" : "host.withdrawnOwn", { name: p.name })]),
            " ",
            button("host-reinstate", t("host.reinstate"), () =>
              act("reinstate", (host) => client.reinstate(tournamentId, p.playerId, host), t("host.done.reinstate")),
            ),
          ]),
        ),
      ),
      h("p", { class: "hint" }, [t("host.reinstateHelp")]),
    ]);
  }

  /** What the server cannot look after (a table that cannot deal...): the host decides. */
  function troubleBox() {
    const tour = page.tournament();
    if (tour.status !== "running") return null;
    const lines = [];
    if (tour.trouble) lines.push(t("host.troubleRound", { reason: tour.trouble.reason }));
    for (const table of allTables()) {
      if (table.trouble && !table.result && !table.abandoned) {
        lines.push(t("host.troubleTable", { n: table.number, round: table.round, reason: table.trouble.reason }));
      }
    }
    if (!lines.length) return null;
    return h("div", { class: "host-box trouble", role: "alert", "data-testid": "host-trouble" }, [
      h("h3", {}, [t("host.troubleTitle")]),
      h("ul", { class: "host-lines" }, lines.map((line) => h("li", {}, [line]))),
      h("p", { class: "hint" }, [t("host.troubleHelp")]),
    ]);
  }

  function reseatForm() {
    const names = page.names();
    const waiting = currentTables().filter((table) => !table.started && !table.result);
    const seated = waiting.flatMap((table) =>
      table.players.map((pid) => [pid, t("host.atTable", { name: names.get(pid) || pid, n: table.number })]),
    );
    if (page.tournament().status !== "running" || !seated.length) return null;
    return h("fieldset", { class: "host-box" }, [
      h("legend", {}, [t("host.reseat")]),
      select("reseat-a", "reseatA", seated, t("host.reseatA")),
      select("reseat-b", "reseatB", seated, t("host.reseatB")),
      button("host-reseat", t("host.reseatButton"), () => {
        const [a, b] = [form.reseatA, form.reseatB];
        act("reseat", (host) => client.reseat(tournamentId, a, b, host), t("host.done.reseat"));
      }),
      h("p", { class: "hint" }, [t("host.reseatHelp")]),
    ]);
  }

  function disqualifyForm() {
    if (page.tournament().status === "over") return null;
    const options = activePlayers().map((p) => [p.playerId, p.name]);
    return h("fieldset", { class: "host-box" }, [
      h("legend", {}, [t("host.disqualify")]),
      select("dq-player", "dqPlayer", options, t("host.player")),
      text("dq-reason", "dqReason", t("host.reason")),
      button(
        "host-disqualify",
        t("host.disqualifyButton"),
        () => {
          if (!form.dqPlayer || !form.dqReason.trim()) {
            toast(t("host.needPlayerReason"), { kind: "error", code: "need_reason" });
            return;
          }
          const [player, reason] = [form.dqPlayer, form.dqReason.trim()];
          act("disqualify", (host) => client.disqualify(tournamentId, player, reason, host), t("host.done.disqualify"));
          form.dqPlayer = "";
          form.dqReason = "";
        },
        { danger: true },
      ),
    ]);
  }

  function fixRows(table) {
    const names = page.names();
    const known = new Map((table.result || []).map((s) => [s.pid, s]));
    return table.players.map((pid, index) => {
      const row = (form.fix[pid] ??= {
        place: known.get(pid)?.place ?? index + 1,
        leftInHand: known.get(pid)?.leftInHand ?? 0,
        dealsWon: known.get(pid)?.dealsWon ?? 0,
      });
      const cell = (key, label, max, long = label) =>
        h("label", { class: "fix-cell" }, [
          h("span", { class: "hint", title: long }, [label]),
          h("input", {
            type: "number",
            min: key === "place" ? 1 : 0,
            max,
            inputmode: "numeric",
            value: row[key],
            "data-testid": `fix-${key}-${pid}`,
            "data-focus-key": `fix-${key}-${pid}`,
            "aria-label": `${long}: ${names.get(pid) || pid}`,
            onInput: (e) => {
              row[key] = Number(e.target.value);
            },
          }),
        ]);
      return h("div", { class: "fix-row", "data-player-id": pid }, [
        h("strong", {}, [names.get(pid) || pid]),
        cell("place", t("host.place"), table.players.length),
        cell("leftInHand", t("tour.col.left"), 10000, t("tour.tb.leftInHand")),
        cell("dealsWon", t("tour.col.won"), 100, t("tour.tb.dealsWon")),
      ]);
    });
  }

  function correctForm() {
    const tables = allTables().filter((table) => !table.abandoned);
    if (!tables.length) return null;
    const chosen = tables.find((table) => table.tableId === form.fixTable);
    return h("fieldset", { class: "host-box" }, [
      h("legend", {}, [t("host.correct")]),
      select(
        "fix-table",
        "fixTable",
        tables.map((table) => [table.tableId, t("host.tableOfRound", { n: table.number, round: table.round })]),
        t("host.table"),
        () => {
          form.fix = {};
          page.rerender();
        },
      ),
      chosen ? fixRows(chosen) : null,
      chosen ? text("fix-reason", "fixReason", t("host.reason")) : null,
      chosen
        ? button("host-fix", t("host.correctButton"), () => {
            if (!form.fixReason.trim()) {
              toast(t("host.needReason"), { kind: "error", code: "need_reason" });
              return;
            }
            correct(chosen);
          })
        : null,
    ]);
  }

  async function correct(table) {
    const result = table.players.map((pid) => ({ playerId: pid, ...form.fix[pid] }));
    try {
      page.taken(await client.correctResult(tournamentId, table.tableId, { result, reason: form.fixReason.trim() }, token()));
      toast(t("host.done.correct"), { code: "corrected" });
      form.fixReason = "";
      form.fix = {};
    } catch (err) {
      showError(err);
    }
  }

  function panel() {
    if (!token()) {
      return h("section", { class: "panel", "aria-labelledby": "host-h" }, [
        h("h2", { id: "host-h" }, [t("host.title")]),
        h("p", { role: "alert" }, [t("host.noToken")]),
      ]);
    }
    return h("section", { class: "panel host-console", "aria-labelledby": "host-h", "data-testid": "host-console" }, [
      h("h2", { id: "host-h" }, [t("host.title")]),
      hostAccount() ? h("p", { class: "muted" }, [t("host.asAccount", { name: hostAccount().name })]) : null,
      troubleBox(),
      ...flow(),
      withdrawnBox(),
      reseatForm(),
      disqualifyForm(),
      correctForm(),
    ]);
  }

  return { panel };
}
