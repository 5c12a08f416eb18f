/* The table page: reveal the bots' moves one at a time, keyboard play, refusals in place.
   The server decides everything; this only paces what it sent and forwards clicks. */
(function () {
  "use strict";
  var timer = null;

  function state() {
    return document.getElementById("play-state");
  }

  function finishReveal(root) {
    if (timer) {
      window.clearTimeout(timer);
      timer = null;
    }
    root.querySelectorAll(".reveal-step").forEach(function (step) {
      step.hidden = false;
      step.classList.remove("current");
    });
    root.classList.remove("revealing");
    // Says the table below is the one to act on (and lets a test wait for exactly that).
    root.dataset.shown = "true";
    focusFirstCard(root);
  }

  function reveal(root) {
    var steps = root.querySelectorAll(".reveal-step");
    if (!steps.length) {
      finishReveal(root);
      return;
    }
    var pace = parseInt(root.dataset.revealMs || "700", 10);
    var index = 0;
    root.classList.add("revealing");
    steps.forEach(function (step) {
      step.hidden = true;
    });
    function next() {
      if (index > 0) {
        steps[index - 1].classList.remove("current");
      }
      if (index >= steps.length) {
        finishReveal(root);
        return;
      }
      steps[index].hidden = false;
      steps[index].classList.add("current");
      index += 1;
      timer = window.setTimeout(next, pace);
    }
    next();
  }

  function focusFirstCard(root) {
    var first = root.querySelector(".card-button.playable");
    if (first && !document.activeElement.closest("#act-form")) {
      first.focus({ preventScroll: true });
    }
  }

  function cardButtons() {
    var root = state();
    return root ? Array.prototype.slice.call(root.querySelectorAll(".card-button")) : [];
  }

  document.addEventListener("keydown", function (event) {
    var root = state();
    if (!root || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (event.target.matches && event.target.matches("select, input[type=text]")) {
      return;
    }
    if (event.key === "Escape" && root.classList.contains("revealing")) {
      finishReveal(root);
      return;
    }
    if (root.classList.contains("revealing")) {
      return;
    }
    var buttons = cardButtons();
    var at = buttons.indexOf(document.activeElement);
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      if (!buttons.length) {
        return;
      }
      var step = event.key === "ArrowRight" ? 1 : -1;
      var target = at < 0 ? 0 : (at + step + buttons.length) % buttons.length;
      buttons[target].focus();
      event.preventDefault();
    } else if (/^[1-9]$/.test(event.key)) {
      var playable = root.querySelectorAll(".card-button.playable");
      var chosen = playable[parseInt(event.key, 10) - 1];
      if (chosen) {
        chosen.click();
        event.preventDefault();
      }
    } else if (event.key === "p" || event.key === "P") {
      var pass = root.querySelector('button[data-action="pass"]');
      if (pass) {
        pass.click();
        event.preventDefault();
      }
    }
  });

  document.addEventListener("click", function (event) {
    var root = state();
    if (root && event.target.closest("[data-skip]")) {
      finishReveal(root);
    }
  });

  // A refusal (400, 409) comes with the table as it stands and the reason: show it in place.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 400 || status === 409) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // No poll may replace the table while the bots' moves are still being shown.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var root = state();
    if (root && root.classList.contains("revealing") && event.detail.requestConfig.verb === "get") {
      event.preventDefault();
    }
  });

  // After the settle, not the swap: htmx settles the new fragment's attributes (its class
  // among them) a moment after swapping it in, which would drop the class set here.
  document.addEventListener("htmx:afterSettle", function () {
    var root = state();
    if (root) {
      reveal(root);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var root = state();
    if (root) {
      reveal(root);
    }
  });
})();
