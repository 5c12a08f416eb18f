/* A card table for people playing a whole game together, drawn from the frames the server
 * sends (lobby/selectors.py frame_for): each frame replaces the drawing.
 *
 * The server decides everything and sends each viewer only what its seat may know; this
 * draws the frame, forwards moves ({"type": "act"}) and table talk, keeps the clocks
 * counting down to the frame's deadlines, and keeps the connection: a websocket that
 * reconnects with backoff, or, where the socket fails, posts and polls.
 *
 * Moves are offered by filtering the frame's legal actions: a card that makes exactly one
 * move plays it when clicked; otherwise cards are picked and the table offers the moves the
 * picked cards make (a pass of four, a meld, a lay-off); bids go to a bidding box.
 */
(function () {
  "use strict";

  var root = document.getElementById("card-table");
  if (!root) {
    return;
  }

  var SUITS = { S: ["\u2660", "spades"], H: ["\u2665", "hearts"], C: ["\u2663", "clubs"], D: ["\u2666", "diamonds"] };
  var SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
  var RANK_WORDS = {
    A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
    6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
  };
  // Pinochle's ten ranks above the king; in games with low cards it sits in its usual place.
  var PINOCHLE_RANKS = "ATKQJ9";
  var FULL_RANKS = "AKQJT98765432";
  var CARD_TEXT = /^(JK|[2-9TJQKA][SHDC])(=(JK|[2-9TJQKA][SHDC]))?$/;
  var POSITIONS = { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] };
  var BIDS_SHOWN = 8;

  var frame = null;
  var picked = [];
  var showLastTrick = false;
  // The bot the host has chosen for each empty seat: every frame redraws the seats, and a
  // frame that arrives while the host chooses (someone sits, someone talks) must not put
  // the choice back to the first bot.
  var botChosen = {};
  var socket = null;
  var retries = 0;
  var polling = null;
  var clockTimer = null;
  var skew = 0;
  var talkWords = JSON.parse(document.getElementById("talk-words").textContent);
  var parts = {
    seats: root.querySelector("[data-part=felt]"),
    hand: root.querySelector("[data-part=hand]"),
    moves: root.querySelector("[data-part=moves]"),
    status: root.querySelector("[data-part=status]"),
    info: root.querySelector("[data-part=info]"),
    pad: root.querySelector("[data-part=pad]"),
    recent: root.querySelector("[data-part=recent]"),
    talk: root.querySelector("[data-part=talk]"),
    notice: root.querySelector("[data-part=notice]"),
    connection: root.querySelector("[data-part=connection]"),
  };

  // ------------------------------------------------------------------ drawing helpers

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

  function face(text) {
    return String(text).split("=")[0];
  }

  function cardWords(text) {
    var halves = String(text).split("=");
    function one(code) {
      if (code === "JK") {
        return "joker";
      }
      var suit = SUITS[code.slice(-1)];
      return (RANK_WORDS[code.slice(0, -1)] || code.slice(0, -1)) + (suit ? " of " + suit[1] : "");
    }
    return one(halves[0]) + (halves.length > 1 ? " as " + one(halves[1]) : "");
  }

  /* One card face: its code in the corner and its suit's symbol, named in words for a
     screen reader; "A=B" is a card played as B (a wild). */
  function card(text, small) {
    var code = face(text);
    var suit = code.slice(-1);
    var suited = Object.prototype.hasOwnProperty.call(SUITS, suit) && code !== "JK";
    var node = el("span", "card s-" + (suited ? suit : "none") + (small ? " small" : ""));
    node.dataset.card = code;
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardWords(text));
    node.title = cardWords(text);
    append(node, el("span", "code", code === "JK" ? "Jkr" : code));
    var pip = el("span", "pip", suited ? SUITS[suit][0] : "\u2605");
    pip.setAttribute("aria-hidden", "true");
    node.appendChild(pip);
    if (!suited) {
      node.classList.add("suitless");
    }
    var stands = String(text).split("=")[1];
    if (stands) {
      node.classList.add("wild");
      append(node, el("span", "stands", "=" + stands));
    }
    return node;
  }

  function cardRow(list, small, className) {
    var row = el("div", "cards" + (className ? " " + className : ""));
    (list || []).forEach(function (text) {
      row.appendChild(card(text, small));
    });
    return row;
  }

  function rankOrder(cards) {
    var low = cards.some(function (text) {
      var rank = face(text).slice(0, -1);
      return face(text) === "JK" || "2345678".indexOf(rank) >= 0;
    });
    return low ? FULL_RANKS : PINOCHLE_RANKS;
  }

  /* The hand grouped by suit (black and red alternating), high cards first, jokers last. */
  function sortedHand(cards) {
    var ranks = rankOrder(cards);
    return cards
      .map(function (text, index) {
        return { text: text, index: index };
      })
      .sort(function (a, b) {
        function key(entry) {
          var code = face(entry.text);
          if (code === "JK") {
            return [9, 0];
          }
          return [SUIT_ORDER[code.slice(-1)], ranks.indexOf(code.slice(0, -1))];
        }
        var ka = key(a);
        var kb = key(b);
        return ka[0] - kb[0] || ka[1] - kb[1] || a.index - b.index;
      });
  }

  function clockText(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    var minutes = Math.floor(whole / 60);
    var rest = whole % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function now() {
    return Date.now() / 1000 + skew;
  }

  // ------------------------------------------------------------------ legal actions

  /* A legal action with the hand cards it uses (a wild's "JK=5D" uses the joker). */
  function parseAction(entry) {
    var words = entry.action.split(" ");
    var cards = words.slice(1).filter(function (word) {
      return CARD_TEXT.test(word);
    });
    return {
      action: entry.action,
      label: entry.label || entry.action,
      verb: words[0],
      cards: cards,
      uses: cards.map(face).sort(),
      amount: words.length === 2 && /^\d+$/.test(words[1]) ? Number(words[1]) : null,
    };
  }

  function legalMoves() {
    return (frame.legal || []).map(parseAction);
  }

  /* How the legal moves are offered: bids (a verb with many amounts), buttons (moves of no
     card), and moves of cards: by a click when each card makes one move at most, else by
     picking the cards. */
  function offer(moves) {
    var counts = {};
    moves.forEach(function (move) {
      if (move.amount !== null) {
        counts[move.verb] = (counts[move.verb] || 0) + 1;
      }
    });
    var bids = moves.filter(function (move) {
      return move.amount !== null && counts[move.verb] > 1 && move.verb !== "take";
    });
    var buttons = moves.filter(function (move) {
      return move.uses.length === 0 && bids.indexOf(move) < 0;
    });
    var withCards = moves.filter(function (move) {
      return move.uses.length > 0;
    });
    var byCard = {};
    var clickable = withCards.every(function (move) {
      if (move.uses.length !== 1 || byCard[move.uses[0]]) {
        return false;
      }
      byCard[move.uses[0]] = move;
      return true;
    });
    return {
      bids: bids,
      buttons: buttons,
      withCards: withCards,
      byCard: clickable && withCards.length ? byCard : null,
      pick: frame.pick || null,
    };
  }

  function sameCards(a, b) {
    return a.length === b.length && a.every(function (value, index) {
      return value === b[index];
    });
  }

  // ------------------------------------------------------------------ sending

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return;
    }
    var url = message.type === "act" ? root.dataset.actUrl : root.dataset.talkUrl;
    var body = new URLSearchParams();
    Object.keys(message).forEach(function (key) {
      if (key !== "type") {
        body.set(key, String(message[key]));
      }
    });
    fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": root.dataset.csrf, Accept: "application/json" },
    })
      .then(function (response) {
        return response.json().then(function (data) {
          if (!response.ok) {
            notice(data.message || data.detail || "Refused (" + response.status + ")");
          }
          if (data.frame) {
            receive(data.frame);
          }
        });
      })
      .catch(function () {
        notice("The move could not be sent; it will be offered again.");
      });
  }

  function act(action) {
    notice("");
    picked = [];
    root.classList.add("sending");
    send({ type: "act", action: action, ply: frame.ply });
  }

  function notice(text) {
    parts.notice.textContent = text;
    parts.notice.hidden = !text;
  }

  // ------------------------------------------------------------------ the felt

  function seatOrder() {
    var players = frame.seats.length;
    var bottom = frame.viewer.seat === null || frame.viewer.seat === undefined ? 0 : frame.viewer.seat;
    return POSITIONS[players].map(function (position, index) {
      return { position: position, seat: (bottom + index) % players };
    });
  }

  function seatTitle(info) {
    var who = info.name || (info.kind === "open" ? "Open seat" : info.kind === "invite" ? "Invited seat" : "Empty");
    return info.compass + " \u00b7 " + who;
  }

  function seatBox(info, form, position) {
    var box = el("section", "seat-box pos-" + position);
    box.dataset.seat = String(info.seat);
    box.setAttribute("aria-label", seatTitle(info) + (info.seat === frame.viewer.seat ? " (you)" : ""));
    if (frame.to_act === info.seat && frame.status === "playing") {
      box.classList.add("to-act");
    }
    if (info.seat === frame.viewer.seat) {
      box.classList.add("me");
    }
    var head = el("div", "seat-head");
    var name = el("strong", "seat-name", seatTitle(info));
    append(head, name);
    if (info.seat === frame.viewer.seat) {
      append(head, el("span", "tag you", "you"));
    }
    if (info.kind === "bot") {
      append(head, el("span", "tag", "bot"));
    }
    if (info.substitute) {
      append(head, el("span", "tag warn", "substitute playing"));
    }
    if (info.kind === "person" && !info.connected) {
      append(head, el("span", "tag warn", "away"));
    }
    (form ? form.tags : []).forEach(function (tag) {
      if (tag !== "to act") {
        append(head, el("span", "tag", tag));
      }
    });
    if (frame.to_act === info.seat && frame.status === "playing") {
      append(head, el("span", "tag act", "to play"));
    }
    box.appendChild(head);
    var clock = el("div", "clock");
    clock.dataset.seatClock = String(info.seat);
    box.appendChild(clock);
    if (form && form.count !== null && form.count !== undefined && info.seat !== frame.viewer.seat) {
      var backs = el("div", "backs");
      backs.setAttribute("aria-label", form.count + (form.count === 1 ? " card" : " cards") + " in hand");
      for (var i = 0; i < Math.min(form.count, 20); i += 1) {
        var back = el("span", "card back small");
        back.setAttribute("aria-hidden", "true");
        backs.appendChild(back);
      }
      append(backs, el("span", "count", form.count));
      box.appendChild(backs);
    } else if (form && form.cards && info.seat !== frame.viewer.seat) {
      box.appendChild(cardRow(form.cards, true, "open-hand"));
    }
    var said = lastTalk(info.seat);
    if (said) {
      append(box, el("p", "bubble", said));
    }
    (form ? form.groups : []).forEach(function (group) {
      var melds = el("div", "melds");
      melds.setAttribute("aria-label", (group.label || "Melds") + " of " + info.compass);
      if (group.label) {
        append(melds, el("h4", null, group.label));
      }
      group.rows.forEach(function (row) {
        var meld = el("div", "meld");
        append(meld, row.label ? el("span", "meld-label", row.label) : null, cardRow(row.cards, true, "tight"));
        melds.appendChild(meld);
      });
      box.appendChild(melds);
    });
    seatControls(info, box);
    return box;
  }

  function lastTalk(seat) {
    var said = null;
    (frame.talk || []).forEach(function (line) {
      if (line.seat === seat) {
        said = line.text;
      }
    });
    return said;
  }

  /* Before the game: sit in an open seat; the host gives an empty seat to a bot. */
  function seatControls(info, box) {
    var empty = info.kind === "open" || info.kind === "invite";
    if (!empty || frame.status === "finished") {
      return;
    }
    var mayTake = info.kind === "open" || root.dataset.token;
    if (root.dataset.signedIn === "true" && frame.viewer.seat === null && mayTake) {
      box.appendChild(postForm(root.dataset.sitUrl, { seat: info.seat, token: root.dataset.token || "" }, "Sit here", "sit"));
    } else if (root.dataset.signedIn !== "true" && mayTake && frame.status === "waiting") {
      var signIn = el("a", "sign-in", "Sign in to sit here");
      signIn.href = root.dataset.signInUrl;
      box.appendChild(signIn);
    }
    if (frame.viewer.host) {
      var form = postForm(root.dataset.fillUrl, { seat: info.seat }, "Give to a bot", "fill");
      var select = el("select");
      select.name = "bot";
      select.setAttribute("aria-label", "Bot for " + info.compass);
      JSON.parse(document.getElementById("bot-choices").textContent).forEach(function (choice) {
        var option = el("option", null, choice[1]);
        option.value = choice[0];
        select.appendChild(option);
      });
      if (botChosen[info.seat]) {
        select.value = botChosen[info.seat];
      }
      select.addEventListener("change", function () {
        botChosen[info.seat] = select.value;
      });
      form.insertBefore(select, form.lastChild);
      box.appendChild(form);
    }
  }

  function postForm(url, fields, label, name) {
    var form = el("form", "seat-form");
    form.method = "post";
    form.action = url;
    var fieldsWithToken = Object.assign({ csrfmiddlewaretoken: root.dataset.csrf }, fields);
    Object.keys(fieldsWithToken).forEach(function (key) {
      var input = el("input");
      input.type = "hidden";
      input.name = key;
      input.value = String(fieldsWithToken[key]);
      form.appendChild(input);
    });
    var button = el("button", null, label);
    button.type = "submit";
    button.dataset.control = name;
    form.appendChild(button);
    return form;
  }

  /* The trick in the middle, each card in front of the seat that played it. */
  function middle(form, where) {
    var box = el("section", "middle");
    box.setAttribute("aria-label", "Middle of the table");
    var trick = el("div", "trick");
    var shown = showLastTrick && frame.last_trick ? frame.last_trick : null;
    var plays = shown || (form.center ? form.center.plays : []);
    trick.setAttribute("aria-label", shown ? "The last trick" : form.center ? form.center.label || "The trick" : "The table");
    if (shown) {
      trick.classList.add("last");
    }
    plays.forEach(function (play) {
      var slot = el("div", "played pos-" + (play.seat === null ? "none" : where[play.seat]));
      slot.dataset.seat = play.seat === null ? "" : String(play.seat);
      append(slot, card(play.card));
      trick.appendChild(slot);
    });
    if (plays.length || form.center) {
      box.appendChild(trick);
    }
    (form.areas || []).forEach(function (area) {
      var place = el("div", "area");
      append(place, el("span", "area-label", area.label));
      if (area.cards && area.cards.length) {
        place.appendChild(cardRow(area.cards, true, "tight pile"));
      } else if (area.count) {
        append(place, el("span", "count", area.count + " face down"));
      }
      box.appendChild(place);
    });
    return box;
  }

  function drawFelt() {
    var form = frame.table_form || { seats: [], areas: [], facts: [] };
    var byPosition = {};
    var where = {};
    seatOrder().forEach(function (entry) {
      byPosition[entry.position] = entry.seat;
      where[entry.seat] = entry.position;
    });
    var felt = el("div", "felt players-" + frame.seats.length);
    Object.keys(byPosition).forEach(function (position) {
      var seat = byPosition[position];
      felt.appendChild(seatBox(frame.seats[seat], form.seats ? form.seats[seat] : null, position));
    });
    felt.appendChild(middle(form, where));
    parts.seats.replaceChildren(felt);
  }

  // ------------------------------------------------------------------ the hand and moves

  function myCards() {
    var form = frame.table_form;
    var seat = frame.viewer.seat;
    if (seat === null || seat === undefined || !form || !form.seats[seat]) {
      return null;
    }
    return form.seats[seat].cards;
  }

  function drawHand(offered) {
    var cards = myCards();
    parts.hand.replaceChildren();
    if (!cards) {
      parts.hand.hidden = true;
      return;
    }
    parts.hand.hidden = false;
    var fan = el("div", "fan");
    var sorted = sortedHand(cards);
    var pickMode = (offered.withCards.length > 0 && !offered.byCard) || offered.pick !== null;
    sorted.forEach(function (entry, order) {
      var code = face(entry.text);
      var button = el("button", "hand-card");
      button.type = "button";
      button.dataset.card = code;
      button.dataset.index = String(entry.index);
      // Where the card lies in the fan, from -1 (the left end) to 1: the fan's curve is the
      // same whatever the number of cards, so a long hand never drops out of sight.
      var half = Math.max(1, (sorted.length - 1) / 2);
      button.style.setProperty("--t", String((order - (sorted.length - 1) / 2) / half));
      var move = offered.byCard ? offered.byCard[code] : null;
      var chosen = picked.indexOf(entry.index) >= 0;
      if (move) {
        button.classList.add("playable");
        button.dataset.action = move.action;
        button.setAttribute("aria-label", move.label + ": " + cardWords(code));
      } else if (pickMode) {
        var usable = offered.pick
          ? offered.pick.cards.indexOf(code) >= 0
          : offered.withCards.some(function (candidate) {
              return candidate.uses.indexOf(code) >= 0;
            });
        button.classList.add(usable ? "pickable" : "unusable");
        button.setAttribute("aria-pressed", chosen ? "true" : "false");
        button.setAttribute("aria-label", cardWords(code) + (chosen ? ", picked" : ""));
      } else {
        button.setAttribute("aria-label", cardWords(code));
        if (offered.withCards.length === 0 && frame.legal.length && !offered.pick) {
          button.classList.add("unusable");
        }
      }
      if (offered.byCard && !move && frame.legal.length) {
        button.classList.add("unusable");
        button.setAttribute("aria-disabled", "true");
      }
      if (chosen) {
        button.classList.add("picked");
      }
      button.appendChild(card(entry.text));
      fan.appendChild(button);
    });
    parts.hand.appendChild(fan);
    spreadFan(fan, sorted.length);
  }

  /* The fan's overlap so that the whole hand fits the width the page gives it. */
  function spreadFan(fan, count) {
    var probe = fan.querySelector(".card");
    if (!probe || count < 2) {
      return;
    }
    var cardWidth = probe.getBoundingClientRect().width;
    var room = parts.hand.getBoundingClientRect().width - cardWidth - 16;
    var step = Math.min(cardWidth * 0.82, room / (count - 1));
    fan.style.setProperty("--overlap", Math.max(0, cardWidth - step) + "px");
  }

  function pickedCodes() {
    var cards = myCards() || [];
    return picked
      .map(function (index) {
        return face(cards[index]);
      })
      .sort();
  }

  function moveButton(move, className) {
    var button = el("button", className || "move");
    button.type = "button";
    button.dataset.action = move.action;
    append(button, el("span", null, move.label));
    if (move.cards.length > 1) {
      button.appendChild(cardRow(move.cards, true, "tight"));
      button.setAttribute("aria-label", move.label + ": " + move.cards.map(cardWords).join(", "));
    }
    return button;
  }

  /* Bids: the next few as buttons, the rest behind "Higher bids", and the calls beside. */
  function biddingBox(offered) {
    var box = el("div", "bidding-box");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Bidding box");
    var grid = el("div", "bids");
    offered.bids.slice(0, BIDS_SHOWN).forEach(function (move) {
      var button = moveButton(move, "bid");
      button.replaceChildren(el("span", "amount", move.amount));
      button.setAttribute("aria-label", move.label);
      grid.appendChild(button);
    });
    box.appendChild(grid);
    if (offered.bids.length > BIDS_SHOWN) {
      var more = el("details", "more-bids");
      append(more, el("summary", null, "Higher bids"));
      var rest = el("div", "bids");
      offered.bids.slice(BIDS_SHOWN).forEach(function (move) {
        var button = moveButton(move, "bid");
        button.replaceChildren(el("span", "amount", move.amount));
        button.setAttribute("aria-label", move.label);
        rest.appendChild(button);
      });
      more.appendChild(rest);
      box.appendChild(more);
    }
    var calls = el("div", "calls");
    offered.buttons.forEach(function (move) {
      calls.appendChild(moveButton(move, "call" + (move.verb === "pass" ? " pass" : "")));
    });
    box.appendChild(calls);
    return box;
  }

  /* Several cards named at once (a pass to a partner): pick as many, then send them. */
  function pickBox(pick) {
    var box = el("div", "offers");
    box.setAttribute("aria-live", "polite");
    var cards = myCards() || [];
    var chosen = picked.slice().sort(function (a, b) {
      return a - b;
    }).map(function (index) {
      return face(cards[index]);
    });
    var verb = pick.verb.charAt(0).toUpperCase() + pick.verb.slice(1);
    if (chosen.length === pick.count) {
      var move = { action: pick.verb + " " + chosen.join(" "), label: verb + " these " + pick.count + " cards", cards: chosen };
      box.appendChild(moveButton(move, "offer"));
    } else {
      append(box, el("p", "hint", verb + ": pick " + pick.count + " cards (" + chosen.length + " picked)."));
    }
    if (chosen.length) {
      var clear = el("button", "link clear", "Clear the picked cards");
      clear.type = "button";
      clear.dataset.clear = "1";
      box.appendChild(clear);
    }
    return box;
  }

  function drawMoves(offered) {
    parts.moves.replaceChildren();
    if (offered.pick) {
      parts.moves.appendChild(pickBox(offered.pick));
    }
    if (!frame.legal.length) {
      return;
    }
    if (offered.bids.length) {
      parts.moves.appendChild(biddingBox(offered));
    } else if (offered.buttons.length) {
      var calls = el("div", "calls");
      offered.buttons.forEach(function (move) {
        calls.appendChild(moveButton(move, "call"));
      });
      parts.moves.appendChild(calls);
    }
    if (offered.withCards.length && !offered.byCard) {
      var chosen = pickedCodes();
      var fits = offered.withCards.filter(function (move) {
        return sameCards(move.uses, chosen);
      });
      var box = el("div", "offers");
      box.setAttribute("aria-live", "polite");
      if (!chosen.length) {
        append(box, el("p", "hint", "Pick cards in your hand: the moves they make appear here."));
      } else if (!fits.length) {
        append(box, el("p", "hint", "These cards make no move together; pick others."));
      } else {
        fits.forEach(function (move) {
          box.appendChild(moveButton(move, "offer"));
        });
      }
      if (chosen.length) {
        var clear = el("button", "link clear", "Clear the picked cards");
        clear.type = "button";
        clear.dataset.clear = "1";
        box.appendChild(clear);
      }
      parts.moves.appendChild(box);
    }
  }

  // ------------------------------------------------------------------ the rest

  function drawStatus() {
    var text;
    var seats = frame.seats;
    if (frame.status === "waiting") {
      text = "Waiting for players: the game starts when every seat is taken.";
    } else if (frame.status === "finished") {
      text = "The game is over.";
    } else if (frame.to_act === frame.viewer.seat && frame.viewer.seat !== null) {
      text = frame.phase_words + ": your turn.";
    } else if (frame.to_act !== null && frame.to_act !== undefined) {
      text = frame.phase_words + ": " + seats[frame.to_act].compass + " (" + seats[frame.to_act].name + ") to play.";
    } else {
      text = frame.phase_words;
    }
    parts.status.textContent = text;
    root.dataset.status = frame.status;
    root.dataset.ply = String(frame.ply);
    root.dataset.phase = frame.phase || "";
    root.dataset.toAct = frame.to_act === null || frame.to_act === undefined ? "" : String(frame.to_act);
    root.classList.toggle("my-turn", frame.to_act === frame.viewer.seat && frame.viewer.seat !== null && (frame.legal.length > 0 || Boolean(frame.pick)));
  }

  /* The page's controls outside the frame's drawing follow the game as its frames come: once
     it starts there is no seat to invite to, and once it is over there is nothing to leave
     and no move to make by a key. */
  function drawControls() {
    var leave = root.querySelector("[data-part=leave]");
    if (leave) {
      var seated = frame.viewer.seat !== null && frame.viewer.seat !== undefined;
      leave.hidden = !seated || frame.status === "finished";
      var button = leave.querySelector("button");
      if (frame.status === "waiting") {
        button.textContent = frame.viewer.host ? "Close the table" : "Leave the seat";
      } else {
        button.textContent = "Leave (a bot plays for you until you sit again)";
      }
    }
    var invite = root.querySelector("[data-part=invite]");
    if (invite) {
      invite.hidden = frame.status !== "waiting";
    }
    var keys = root.querySelector("[data-part=keys]");
    if (keys) {
      keys.hidden = frame.status === "finished";
    }
  }

  function drawInfo() {
    var box = el("div", "info-box");
    var facts = el("dl", "hand-facts");
    function fact(label, value) {
      append(facts, el("dt", null, label), el("dd", null, value));
    }
    fact("Game", frame.variant_label + (frame.rated ? ", rated" : ", casual"));
    fact("Hand", String(frame.hand_no));
    fact("Phase", frame.phase_words || "");
    if (frame.my_meld !== null && frame.my_meld !== undefined) {
      fact("Your meld", String(frame.my_meld));
    }
    ((frame.table_form && frame.table_form.facts) || []).forEach(function (item) {
      if (item.items) {
        fact(item.label, item.items.join("; "));
      } else if (item.value !== undefined && item.value !== null) {
        fact(item.label, item.value);
      } else if (!item.cards) {
        fact(item.label, "");
      }
    });
    box.appendChild(facts);
    ((frame.table_form && frame.table_form.facts) || []).forEach(function (item) {
      if (item.cards) {
        append(box, append(el("div", "card-row"), el("span", null, item.label), cardRow(item.cards, true, "tight")));
      }
    });
    if (frame.last_trick) {
      var toggle = el("button", "link", showLastTrick ? "Show the trick in play" : "Show the last trick");
      toggle.type = "button";
      toggle.dataset.lastTrick = "1";
      toggle.setAttribute("aria-pressed", showLastTrick ? "true" : "false");
      box.appendChild(toggle);
    }
    parts.info.replaceChildren(box);
  }

  function drawPad() {
    var scores = frame.scores;
    parts.pad.replaceChildren();
    if (!scores) {
      return;
    }
    var grid = el("table", "score-pad");
    grid.id = "score-pad";
    append(grid, el("caption", null, "Score pad" + (frame.target ? " (to " + frame.target.value + (frame.target.kind === "hands" ? " hands)" : ")") : "")));
    var head = append(el("tr"), el("th", null, "hand"));
    head.firstChild.scope = "col";
    scores.sides.forEach(function (side) {
      var cell = el("th", "num", side);
      cell.scope = "col";
      head.appendChild(cell);
    });
    append(grid, append(el("thead"), head));
    var body = el("tbody");
    scores.hands.forEach(function (row, index) {
      var line = append(el("tr"), el("th", null, index + 1));
      line.firstChild.scope = "row";
      row.forEach(function (value) {
        append(line, el("td", "num", value));
      });
      body.appendChild(line);
    });
    grid.appendChild(body);
    var total = append(el("tr"), el("th", null, "total"));
    total.firstChild.scope = "row";
    scores.totals.forEach(function (value, index) {
      var cell = el("td", "num", value);
      cell.dataset.total = String(index);
      total.appendChild(cell);
    });
    append(grid, append(el("tfoot"), total));
    parts.pad.appendChild(grid);
  }

  function drawRecent() {
    var list = el("ol", "recent-list");
    (frame.recent || []).slice(-8).forEach(function (line) {
      var item = el("li", null, line.text);
      item.dataset.ply = String(line.ply);
      list.appendChild(item);
    });
    parts.recent.replaceChildren(list);
  }

  function drawTalk() {
    var box = el("div", "talk-box");
    var log = el("ul", "talk-log");
    (frame.talk || []).slice(-6).forEach(function (line) {
      append(log, el("li", null, line.name + ": " + line.text));
    });
    box.appendChild(log);
    if (frame.viewer.seat !== null && frame.viewer.seat !== undefined) {
      var buttons = el("div", "talk-buttons");
      talkWords.forEach(function (word) {
        var button = el("button", "talk", word.text);
        button.type = "button";
        button.dataset.talk = word.key;
        buttons.appendChild(button);
      });
      box.appendChild(buttons);
    }
    parts.talk.replaceChildren(box);
  }

  function tickClocks() {
    if (!frame) {
      return;
    }
    frame.seats.forEach(function (info) {
      var node = root.querySelector('[data-seat-clock="' + info.seat + '"]');
      if (!node || !info.clock || frame.status !== "playing") {
        if (node) {
          node.textContent = "";
        }
        return;
      }
      var deadline = info.clock.deadline;
      var bank = info.clock.bank_s;
      var text = "bank " + clockText(bank);
      node.classList.remove("running", "low");
      if (deadline) {
        var left = deadline - now();
        text = clockText(left) + " \u00b7 " + text;
        node.classList.add("running");
        if (left < 10) {
          node.classList.add("low");
        }
      }
      node.textContent = text;
      node.setAttribute("aria-label", "Clock: " + text);
    });
  }

  function draw() {
    var moves = legalMoves();
    var offered = offer(moves);
    var focusedCard = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    drawStatus();
    drawControls();
    drawFelt();
    drawHand(offered);
    drawMoves(offered);
    drawInfo();
    drawPad();
    drawRecent();
    drawTalk();
    tickClocks();
    if (frame.status === "finished") {
      var link = root.querySelector("[data-part=result-link]");
      if (link) {
        link.hidden = false;
      }
    }
    if (focusedCard) {
      var again = parts.hand.querySelector('.hand-card[data-card="' + focusedCard + '"]');
      if (again) {
        again.focus({ preventScroll: true });
      }
    }
  }

  function receive(next) {
    if (frame && next.ply === frame.ply && next.status === frame.status && JSON.stringify(next) === JSON.stringify(frame)) {
      return;
    }
    if (!frame || next.ply !== frame.ply || next.hand_no !== frame.hand_no) {
      picked = [];
      if (frame && next.ply !== frame.ply) {
        showLastTrick = false;
      }
    }
    frame = next;
    root.classList.remove("sending");
    draw();
  }

  // ------------------------------------------------------------------ events

  root.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    if (!target || !root.contains(target) || target.type === "submit") {
      return;
    }
    if (target.dataset.lastTrick) {
      showLastTrick = !showLastTrick;
      draw();
    } else if (target.dataset.clear) {
      picked = [];
      draw();
    } else if (target.dataset.talk) {
      send({ type: "talk", key: target.dataset.talk });
    } else if (target.classList.contains("hand-card")) {
      if (target.dataset.action) {
        act(target.dataset.action);
      } else if (target.classList.contains("pickable") || target.classList.contains("picked")) {
        var index = Number(target.dataset.index);
        var at = picked.indexOf(index);
        if (at >= 0) {
          picked.splice(at, 1);
        } else {
          picked.push(index);
        }
        draw();
        var again = parts.hand.querySelector('.hand-card[data-index="' + index + '"]');
        if (again) {
          again.focus({ preventScroll: true });
        }
      }
    } else if (target.dataset.action) {
      act(target.dataset.action);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (!frame || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      return;
    }
    var cards = Array.prototype.slice.call(parts.hand.querySelectorAll(".hand-card"));
    var at = cards.indexOf(document.activeElement);
    var handled = true;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      if (!cards.length) {
        return;
      }
      var step = event.key === "ArrowRight" ? 1 : -1;
      cards[at < 0 ? 0 : (at + step + cards.length) % cards.length].focus();
    } else if (/^[1-9]$/.test(event.key)) {
      var choices = parts.moves.querySelectorAll(".offer");
      if (!choices.length) {
        choices = parts.hand.querySelectorAll(".hand-card.playable");
      }
      var chosen = choices[Number(event.key) - 1];
      if (chosen) {
        chosen.click();
      }
    } else if (event.key === "p" || event.key === "P") {
      var pass = parts.moves.querySelector('button[data-action="pass"]');
      if (pass) {
        pass.click();
      }
    } else if (event.key === "b" || event.key === "B") {
      var bid = parts.moves.querySelector("button.bid");
      if (bid) {
        bid.focus();
      }
    } else if (event.key === "l" || event.key === "L") {
      if (frame.last_trick) {
        showLastTrick = !showLastTrick;
        draw();
      }
    } else if (event.key === "Escape") {
      picked = [];
      draw();
    } else {
      handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  });

  window.addEventListener("resize", function () {
    var fan = parts.hand.querySelector(".fan");
    if (fan) {
      spreadFan(fan, fan.children.length);
    }
  });

  // ------------------------------------------------------------------ the connection

  function connectionState(text, state) {
    parts.connection.textContent = text;
    root.dataset.connection = state;
  }

  function poll() {
    if (polling) {
      return;
    }
    connectionState("Live updates by polling (the live connection failed).", "polling");
    polling = window.setInterval(function () {
      fetch(root.dataset.frameUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (data) {
          if (data) {
            receive(data.frame || data);
          }
        })
        .catch(function () {
          /* the next poll tries again */
        });
    }, 1500);
  }

  function stopPolling() {
    if (polling) {
      window.clearInterval(polling);
      polling = null;
    }
  }

  function connect() {
    if (!("WebSocket" in window) || root.dataset.transport === "poll") {
      poll();
      return;
    }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var opened = false;
    socket = new WebSocket(scheme + window.location.host + root.dataset.wsPath);
    socket.addEventListener("open", function () {
      opened = true;
      retries = 0;
      stopPolling();
      connectionState("Live.", "live");
    });
    socket.addEventListener("message", function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "frame") {
        receive(message.frame);
      } else if (message.type === "error") {
        root.classList.remove("sending");
        notice(message.message);
      }
    });
    socket.addEventListener("close", function () {
      socket = null;
      retries += 1;
      // After a few failed tries in a row the table keeps going by polling while it retries.
      if (!opened && retries >= 3) {
        poll();
      } else {
        connectionState("Reconnecting\u2026", "reconnecting");
      }
      var delay = Math.min(30000, 500 * Math.pow(2, Math.min(retries, 6)));
      window.setTimeout(connect, delay);
    });
  }

  var first = JSON.parse(document.getElementById("first-frame").textContent);
  skew = Number(root.dataset.serverTime || 0) ? Number(root.dataset.serverTime) - Date.now() / 1000 : 0;
  receive(first);
  clockTimer = window.setInterval(tickClocks, 250);
  connect();
})();
