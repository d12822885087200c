/* Small helpers of the server-rendered pages; everything works without them, they only make
   the pages nicer: show the fields the chosen game needs, count the round clock down,
   ask before destructive buttons, and make boxes that scroll sideways reachable by keyboard.
   Re-applied to content htmx swaps in (htmx.onLoad). */
(function () {
  "use strict";

  // The game is a select on the organiser's pages and a row of buttons (radios) on a phone.
  function chosenGame(form) {
    var select = form.querySelector("select[name=game]");
    if (select) return select.value;
    var radio = form.querySelector("input[name=game]:checked");
    return radio ? radio.value : "";
  }

  function gameFields(form) {
    var script = document.getElementById("game-fields");
    if (!script) return;
    var map = JSON.parse(script.textContent || "{}");
    if (!form.querySelector("select[name=game], input[name=game]")) return;
    var wanted = map[chosenGame(form)];
    form.querySelectorAll("[data-field]").forEach(function (el) {
      // The game comes first; then only the fields it needs are shown (and posted).
      var show = !!wanted && wanted.indexOf(el.getAttribute("data-field")) !== -1;
      el.hidden = !show;
      el.querySelectorAll("input, select, textarea").forEach(function (input) {
        input.disabled = !show;
      });
    });
    // TRI + 1: in klop all four play, so the rotation's resting player is named the talon
    // (the game's "all_play" mark); the words only change, the choice is still posted.
    var allPlay = !!wanted && wanted.indexOf("all_play") !== -1;
    form.querySelectorAll("[data-rest]").forEach(function (el) {
      el.hidden = (el.getAttribute("data-rest") === "plays") !== allPlay;
    });
  }

  // TRI + 1: the player who rests this hand neither declares nor partners.
  function restingChips(form) {
    var resting = form.querySelector("select[name=resting]");
    if (!resting) return;
    form.querySelectorAll("fieldset[data-field=declarer] .chip, fieldset[data-field=partner] .chip")
      .forEach(function (chip) {
        var out = resting.value !== "" && chip.getAttribute("data-value") === resting.value;
        chip.hidden = out;
        var input = chip.querySelector("input");
        if (out && input && input.checked) input.checked = false;
      });
  }

  function initHandForms(root) {
    root.querySelectorAll("form.hand-form").forEach(function (form) {
      if (form.dataset.ready) return;
      form.dataset.ready = "1";
      var select = form.querySelector("select[name=game]");
      if (select) {
        select.addEventListener("change", function () { gameFields(form); });
        if (!select.value && !form.querySelector(".has-error")) select.focus();
      }
      form.querySelectorAll("input[name=game]").forEach(function (radio) {
        radio.addEventListener("change", function () { gameFields(form); });
      });
      var resting = form.querySelector("select[name=resting]");
      if (resting) resting.addEventListener("change", function () { restingChips(form); });
      gameFields(form);
      restingChips(form);
    });
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tickClocks() {
    document.querySelectorAll(".clock[data-clock-start]").forEach(function (clock) {
      var start = Date.parse(clock.getAttribute("data-clock-start"));
      var minutes = parseInt(clock.getAttribute("data-clock-minutes"), 10);
      if (isNaN(start) || isNaN(minutes)) return;
      var left = Math.round((start + minutes * 60000 - Date.now()) / 1000);
      var out = clock.querySelector(".clock-time");
      if (left <= 0) {
        clock.classList.add("over");
        out.textContent = clock.getAttribute("data-label-over") || "0:00";
        return;
      }
      clock.classList.toggle("last-minutes", left <= 300);
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }

  // Destructive actions ask first: data-confirm on the form, or on the one button of a form
  // that does something destructive (withdraw among check-in buttons). Listening in the
  // capture phase lets a "no" stop htmx's own submit handler as well.
  function initConfirms() {
    if (document.documentElement.dataset.confirmReady) return;
    document.documentElement.dataset.confirmReady = "1";
    document.addEventListener("submit", function (event) {
      var button = event.submitter;
      var text = (button && button.getAttribute("data-confirm")) ||
        event.target.getAttribute("data-confirm");
      if (text && !window.confirm(text)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }, true);
  }

  // The content security policy allows no inline handlers: selects that submit their form
  // on change say so with data-autosubmit.
  function initAutosubmit(root) {
    root.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      if (select.dataset.autosubmitReady) return;
      select.dataset.autosubmitReady = "1";
      select.addEventListener("change", function () { select.form.submit(); });
    });
  }

  // "updated 5 s ago" under what refreshes itself: counted from when the part arrived.
  function tickUpdated() {
    var now = Date.now();
    document.querySelectorAll(".updated[data-template]").forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(now);
      var seconds = Math.round((now - parseInt(el.dataset.t0, 10)) / 1000);
      el.textContent = el.getAttribute("data-template").replace("{s}", String(seconds));
    });
  }

  // A region that refreshes itself (data-poll) skips a refresh while someone is typing in
  // it or has left something typed there: a note half written is not replaced.
  function busy(region) {
    if (region.contains(document.activeElement) && document.activeElement !== region) return true;
    return Array.prototype.some.call(region.querySelectorAll("input, textarea, select"), function (f) {
      if (f.type === "hidden") return false;
      if (f.tagName === "SELECT") {
        var first = 0;
        Array.prototype.forEach.call(f.options, function (o, i) { if (o.defaultSelected) first = i; });
        return f.selectedIndex !== first;
      }
      return f.value !== f.defaultValue;
    });
  }

  function initPolls() {
    if (document.documentElement.dataset.pollReady) return;
    document.documentElement.dataset.pollReady = "1";
    document.addEventListener("htmx:beforeRequest", function (event) {
      var el = event.detail && event.detail.elt;
      if (el && el.hasAttribute && el.hasAttribute("data-poll") &&
          event.detail.requestConfig && event.detail.requestConfig.verb === "get" && busy(el)) {
        event.preventDefault();
      }
    });
  }

  // A table wider than the screen scrolls in its own box (a div.scroll, or on a phone the
  // table itself): a keyboard must reach the box to scroll it, and a screen reader names it
  // (WCAG 2.1.1). Only boxes that do scroll become tab stops, named by their table's caption
  // or the heading before them; a box set by its template (tabindex) is left as it is.
  function headingBefore(el) {
    for (var node = el; node && node !== document.body; node = node.parentElement) {
      for (var sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        if (/^H[1-6]$/.test(sib.tagName)) return sib;
        var inner = sib.querySelectorAll("h1, h2, h3, h4, h5, h6");
        if (inner.length) return inner[inner.length - 1];
      }
    }
    return null;
  }

  function scrollRegions() {
    document.querySelectorAll("main .scroll, main table.data").forEach(function (box) {
      if (box.hasAttribute("tabindex") && !box.dataset.scrollRegion) return;
      var scrolls = box.scrollWidth > box.clientWidth + 1 &&
        /auto|scroll/.test(getComputedStyle(box).overflowX);
      if (!scrolls) {
        if (box.dataset.scrollRegion) {
          ["tabindex", "role", "aria-label", "data-scroll-region"].forEach(function (name) {
            box.removeAttribute(name);
          });
        }
        return;
      }
      if (box.dataset.scrollRegion) return;
      box.dataset.scrollRegion = "1";
      box.setAttribute("tabindex", "0");
      if (box.tagName === "TABLE") {
        // A table keeps its role; its caption names it, else the heading before it.
        if (box.caption || box.hasAttribute("aria-label")) return;
      } else {
        box.setAttribute("role", "region");
        var caption = box.querySelector("caption");
        if (caption) { box.setAttribute("aria-label", caption.textContent.trim()); return; }
      }
      var heading = headingBefore(box);
      var name = (heading ? heading.textContent : document.title).replace(/\s+/g, " ").trim();
      box.setAttribute("aria-label", name);
    });
  }

  function init(root) {
    initPolls();
    initAutosubmit(root);
    initHandForms(root);
    initConfirms(root);
    tickClocks();
    tickUpdated();
    scrollRegions();
  }

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    setInterval(tickClocks, 1000);
    setInterval(tickUpdated, 1000);
    if (window.htmx) window.htmx.onLoad(function (el) { init(el); });
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(scrollRegions, 200);
    });
  });
})();
