/* The replay viewer's card table, drawn from the frames the server computed.
 *
 * The page already lists every step as text; this draws the table for one step, steps
 * through them (buttons, keys, play and pause, jump to a mark of the hand) and keeps the
 * step in the address so it can be shared. It knows no game: each frame carries the table
 * its game's observer described (seats with their cards or a count and groups of cards,
 * the cards in the middle, other places, facts and the running score), which it draws as it
 * comes. It shows only what the frames hold: in a seat's view the server sent that seat's
 * view and nothing else.
 */
(function () {
  "use strict";

  var SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var FOUR_COLOUR_KEY = "arena.replay.fourColour";
  var PLAY_EVERY_MS = 800;

  var viewer = document.getElementById("viewer");
  if (!viewer) {
    return;
  }
  var table = document.getElementById("table");
  var caption = document.getElementById("caption");
  var stepLabel = document.getElementById("step-label");
  var jump = document.getElementById("jump");
  var playButton = document.getElementById("play");
  var fourColour = document.getElementById("four-colour");
  var viewForm = document.getElementById("view-form");
  var viewStep = document.getElementById("view-step");
  var replay = null;
  var current = Number(viewer.dataset.step) || 0;
  var timer = null;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = String(text);
    }
    return node;
  }

  function append(parent) {
    for (var i = 1; i < arguments.length; i += 1) {
      if (arguments[i]) {
        parent.appendChild(arguments[i]);
      }
    }
    return parent;
  }

  /* One card face: its code and its suit's symbol ("TH"). A face whose last letter is no
     suit belongs to no suit (a joker) and is drawn plain; "A=B" is a card played as B. */
  function card(text, small) {
    var parts = String(text).split("=");
    var face = parts[0];
    var suit = face.slice(-1);
    var suited = Object.prototype.hasOwnProperty.call(SUIT_SYMBOLS, suit);
    var node = el("span", "card s-" + (suited ? suit : "none") + (small ? " small" : ""));
    node.dataset.card = face;
    node.title = text;
    append(node, el("span", "code", face));
    var pip = el("span", "pip", suited ? SUIT_SYMBOLS[suit] : "\u2605");
    pip.setAttribute("aria-hidden", "true");
    node.appendChild(pip);
    if (!suited) {
      node.classList.add("suitless");
    }
    if (parts.length > 1) {
      node.classList.add("wild");
      node.dataset.stands = parts[1];
      append(node, el("span", "stands", "=" + parts[1]));
    }
    return node;
  }

  function cards(list, small) {
    var row = el("div", "cards");
    (list || []).forEach(function (text) {
      row.appendChild(card(text, small));
    });
    return row;
  }

  function backs(count, where) {
    var row = el("div", "cards");
    if (count > 0) {
      var back = el("span", "card back");
      back.setAttribute("aria-hidden", "true");
      row.appendChild(back);
    }
    row.appendChild(el("span", "count", count + (count === 1 ? " card" : " cards") + (where || "")));
    return row;
  }

  function seatName(seat) {
    return "Seat " + seat + " \u00b7 " + replay.names[seat];
  }

  /* Seats around the table, the viewer's (or seat 0) at the bottom, the others clockwise. */
  function positions(players, bottom) {
    var areas = { 4: ["south", "west", "north", "east"], 3: ["south", "west", "east"], 2: ["south", "north"] }[players];
    return areas.map(function (area, index) {
      return { area: area, seat: (bottom + index) % players };
    });
  }

  /* A place's cards face up, or face down as a count, or nothing (the label says it all). */
  function heldCards(place, where) {
    if (place.cards) {
      return cards(place.cards, true);
    }
    if (place.count !== undefined && place.count !== null) {
      return backs(place.count, where);
    }
    return null;
  }

  function seatPanel(entry, area) {
    var seat = entry.seat;
    var panel = el("section", "panel seat area-" + area);
    panel.setAttribute("aria-label", seatName(seat));
    var heading = el("h3", null, seatName(seat));
    entry.tags.forEach(function (tag) {
      append(heading, el("span", "tag", tag));
    });
    if (entry.to_act) {
      panel.classList.add("to-act");
    }
    panel.appendChild(heading);
    if (entry.cards) {
      panel.appendChild(cards(entry.cards));
    } else if (entry.count !== null && entry.count !== undefined) {
      panel.appendChild(backs(entry.count, " in hand"));
    } else {
      append(panel, el("p", null, "Hand not shown"));
    }
    entry.groups.forEach(function (group) {
      if (group.label) {
        append(panel, el("h4", null, group.label));
      }
      group.rows.forEach(function (row) {
        append(panel, append(el("div", "card-row"), row.label ? el("span", null, row.label) : null, cards(row.cards, true)));
      });
    });
    return panel;
  }

  function centerPanel(center, panel) {
    append(panel, el("h3", null, center.label));
    var row = el("div", "center-cards");
    center.plays.forEach(function (play) {
      append(row, append(el("div", "played"), card(play.card), play.seat === null ? null : el("div", null, "seat " + play.seat)));
    });
    panel.appendChild(row);
  }

  function middlePanel(frame) {
    var view = frame.table;
    var panel = el("section", "panel area-middle");
    panel.setAttribute("aria-label", "Middle of the table");
    if (view.center) {
      centerPanel(view.center, panel);
    }
    view.areas.forEach(function (place) {
      var shown = heldCards(place, " face down");
      append(panel, el(shown ? "h4" : "p", null, place.label), shown);
    });
    // A board cut short by a fault has no engine result: it ends on the forfeit's score.
    if (frame.over || (replay.fault && current === replay.frames.length - 1)) {
      panel.appendChild(finalBox());
    }
    return panel;
  }

  function finalBox() {
    var box = el("div", "final");
    box.id = "final";
    append(box, el("h3", null, "Hand over: the board score"));
    if (replay.fault) {
      append(box, el("p", null, "Fault of seat " + replay.fault.seat + " (" + replay.fault.kind + ")"));
    }
    var grid = el("table");
    var head = append(el("tr"), el("th", null, "side"), el("th", null, "score"));
    head.children[0].scope = "col";
    head.children[1].scope = "col";
    append(grid, append(el("thead"), head));
    var body = el("tbody");
    replay.sides.forEach(function (seats, index) {
      var score = el("td", "num", replay.team_scores ? replay.team_scores[index] : "");
      score.dataset.finalScore = String(index);
      var label = el("th", null, "seat " + seats.join(" and "));
      label.scope = "row";
      append(body, append(el("tr"), label, score));
    });
    append(box, append(grid, body));
    return box;
  }

  function infoPanel(view) {
    var panel = el("section", "panel area-info");
    panel.setAttribute("aria-label", "The hand");
    append(panel, el("h3", null, view.title || "The hand"));
    view.facts.forEach(function (fact) {
      if (fact.items) {
        var list = el("ul");
        fact.items.forEach(function (item) {
          append(list, el("li", null, item));
        });
        append(panel, el("h4", null, fact.label), list);
      } else if (fact.cards) {
        append(panel, append(el("div", "card-row"), el("span", null, fact.label), cards(fact.cards, true)));
      } else if (fact.value !== undefined && fact.value !== null) {
        append(panel, el("p", null, fact.label + ": " + fact.value));
      } else {
        append(panel, el("p", null, fact.label));
      }
    });
    return panel;
  }

  function scorePanel(score) {
    var panel = el("section", "panel area-score");
    panel.setAttribute("aria-label", "Running score");
    append(panel, el("h3", null, "Running score"));
    var grid = el("table");
    var head = el("tr");
    ["side"].concat(score.columns).forEach(function (name) {
      var cell = el("th", null, name);
      cell.scope = "col";
      head.appendChild(cell);
    });
    append(grid, append(el("thead"), head));
    var body = el("tbody");
    replay.sides.forEach(function (seats, index) {
      var row = el("tr");
      var label = el("th", null, "seat " + seats.join(" and "));
      label.scope = "row";
      row.appendChild(label);
      score.rows[index].forEach(function (value) {
        append(row, el("td", "num", value));
      });
      body.appendChild(row);
    });
    append(panel, append(grid, body));
    return panel;
  }

  function draw() {
    var frame = replay.frames[current];
    var view = frame.table;
    var bottom = replay.seat === null ? 0 : replay.seat;
    table.replaceChildren();
    append(table, infoPanel(view), view.score ? scorePanel(view.score) : null, middlePanel(frame));
    positions(replay.players, bottom).forEach(function (place) {
      table.appendChild(seatPanel(view.seats[place.seat], place.area));
    });
    stepLabel.textContent = "Step " + current + " of " + (replay.frames.length - 1);
    caption.textContent = frame.caption;
    table.dataset.step = String(current);
  }

  function markIndexAt(step) {
    var found = 0;
    replay.marks.forEach(function (mark, index) {
      if (mark.step <= step) {
        found = index;
      }
    });
    return found;
  }

  function go(step) {
    current = Math.max(0, Math.min(replay.frames.length - 1, step));
    draw();
    jump.value = String(markIndexAt(current));
    var previous = document.querySelector(".step-list [aria-current]");
    if (previous) {
      previous.removeAttribute("aria-current");
    }
    var item = document.getElementById("step-" + current);
    if (item) {
      item.setAttribute("aria-current", "step");
    }
    viewStep.value = String(current);
    var params = new URLSearchParams(window.location.search);
    params.set("step", String(current));
    if (replay.seat === null) {
      params.delete("seat");
    } else {
      params.set("seat", String(replay.seat));
    }
    window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
    if (current === replay.frames.length - 1) {
      pause();
    }
  }

  function pause() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
    // A toggle button keeps its name; aria-pressed (and its colour) say it is playing.
    playButton.setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (timer !== null) {
      pause();
      return;
    }
    if (current === replay.frames.length - 1) {
      go(0);
    }
    playButton.setAttribute("aria-pressed", "true");
    timer = window.setInterval(function () {
      go(current + 1);
    }, PLAY_EVERY_MS);
  }

  var ACTIONS = {
    first: function () { go(0); },
    prev: function () { go(current - 1); },
    next: function () { go(current + 1); },
    last: function () { go(replay.frames.length - 1); },
    play: togglePlay,
  };

  function onKey(event) {
    var target = event.target;
    var tag = target && target.tagName;
    if (event.altKey || event.ctrlKey || event.metaKey || tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") {
      return;
    }
    if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) {
      return; // the focused button's own click does it
    }
    var handled = true;
    if (event.key === "ArrowLeft") {
      ACTIONS.prev();
    } else if (event.key === "ArrowRight") {
      ACTIONS.next();
    } else if (event.key === " ") {
      togglePlay();
    } else if (event.key === "Home") {
      ACTIONS.first();
    } else if (event.key === "End") {
      ACTIONS.last();
    } else if (/^[1-9]$/.test(event.key) && replay.marks[Number(event.key)] && replay.marks[Number(event.key)].label !== "End") {
      go(replay.marks[Number(event.key)].step);
    } else {
      handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  }

  function start(data) {
    replay = data;
    replay.marks.forEach(function (mark, index) {
      var option = el("option", null, mark.label + " (step " + mark.step + ")");
      option.value = String(index);
      jump.appendChild(option);
    });
    jump.addEventListener("change", function () {
      go(replay.marks[Number(jump.value)].step);
    });
    viewer.querySelectorAll("[data-go]").forEach(function (button) {
      button.addEventListener("click", function () {
        ACTIONS[button.dataset.go]();
      });
    });
    document.addEventListener("keydown", onKey);
    viewer.hidden = false;
    go(current);
  }

  function applyFourColour() {
    document.documentElement.classList.toggle("four-colour", fourColour.checked);
  }

  try {
    fourColour.checked = window.localStorage.getItem(FOUR_COLOUR_KEY) === "1";
  } catch (error) {
    fourColour.checked = false; // storage refused (private mode): the choice is not kept
  }
  applyFourColour();
  fourColour.addEventListener("change", function () {
    applyFourColour();
    try {
      window.localStorage.setItem(FOUR_COLOUR_KEY, fourColour.checked ? "1" : "0");
    } catch (error) {
      /* storage refused: the choice lasts for this page only */
    }
  });
  document.getElementById("view-seat").addEventListener("change", function () {
    viewForm.submit();
  });

  fetch(viewer.dataset.framesUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then(function (response) {
      if (!response.ok) {
        throw new Error("the frames answered " + response.status);
      }
      return response.json();
    })
    .then(start)
    .catch(function (error) {
      viewer.hidden = false;
      caption.textContent = "The table could not be drawn (" + error.message + "); every step is listed below.";
    });
})();
