/* The projector's standings page through the field by themselves: as many rows as fit the
   screen below the seating, the next screenful every PAGE_SECONDS, and "page 1 of 2" in words
   (the sentence comes translated from the page, in data-template). htmx replaces #projector
   at every refresh; the page on screen is kept here and shown again in the new content, so a
   refresh does not jump back to the top. Without this script, or on a screen where not even
   MIN_ROWS rows fit (a phone), the whole field is shown and the page scrolls as any other. */
(function () {
  "use strict";
  var PAGE_SECONDS = 10;
  var MIN_ROWS = 3;
  var page = 0;       // the page on screen, counted from 0
  var pages = 1;
  var perPage = 0;    // rows on a page, measured anew after every refresh and resize

  function fits() {
    return document.documentElement.scrollHeight <= window.innerHeight;
  }

  function rowsOf(box) {
    return Array.prototype.slice.call(box.querySelectorAll("table.standings tbody tr"));
  }

  function showRows(rows, first, count) {
    rows.forEach(function (row, i) { row.hidden = i < first || i >= first + count; });
  }

  function say(box, rows) {
    var out = box.querySelector(".page-of");
    if (!out) return;
    out.hidden = pages < 2;
    if (pages < 2) return;
    var first = page * perPage;
    out.textContent = out.getAttribute("data-template")
      .replace("{page}", String(page + 1)).replace("{pages}", String(pages))
      .replace("{first}", String(first + 1))
      .replace("{last}", String(Math.min(first + perPage, rows.length)))
      .replace("{field}", String(rows.length));
  }

  // The most rows that fit with the page not scrolling: a binary search over the first rows
  // (rows are one line each on the projector, so the first rows measure them all).
  function measure(rows) {
    var low = 0, high = rows.length - 1;
    while (low < high) {
      var mid = Math.ceil((low + high) / 2);
      showRows(rows, 0, mid);
      if (fits()) low = mid; else high = mid - 1;
    }
    return low;
  }

  function layout() {
    var box = document.getElementById("projector");
    if (!box) return;
    var rows = rowsOf(box);
    var out = box.querySelector(".page-of");
    if (out) out.hidden = true;
    showRows(rows, 0, rows.length);
    if (fits()) {
      perPage = rows.length;
    } else {
      // Measured with the "page 1 of 2" line shown: one line (CSS) whatever it says.
      if (out) { out.hidden = false; out.textContent = "…"; }
      perPage = measure(rows);
    }
    if (perPage >= rows.length || perPage < MIN_ROWS) {
      perPage = rows.length;
      pages = 1;
      page = 0;
      showRows(rows, 0, rows.length);
    } else {
      pages = Math.ceil(rows.length / perPage);
      page = Math.min(page, pages - 1);
      showRows(rows, page * perPage, perPage);
    }
    box.dataset.pages = String(pages);
    say(box, rows);
  }

  function next() {
    var box = document.getElementById("projector");
    if (!box || pages < 2) return;
    page = (page + 1) % pages;
    var rows = rowsOf(box);
    showRows(rows, page * perPage, perPage);
    say(box, rows);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("projector")) return;
    layout();
    setInterval(next, PAGE_SECONDS * 1000);
    // After htmx put the new content in and before the screen is painted (no flash of the
    // whole field), and once more when the page's helpers have filled it in (the clock's
    // words take their room only then).
    document.body.addEventListener("htmx:afterSwap", layout);
    document.body.addEventListener("htmx:afterSettle", layout);
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(layout, 200);
    });
  });
})();
