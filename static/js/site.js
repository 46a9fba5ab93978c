// Deadline countdowns: <time data-countdown datetime="ISO"> shows "in 3 h 12 min".
(function () {
  function fmt(ms) {
    if (ms <= 0) return "deadline passed";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), sec = s % 60;
    if (d > 0) return "in " + d + " d " + h + " h";
    if (h > 0) return "in " + h + " h " + m + " min";
    return "in " + m + " min " + sec + " s";
  }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var target = Date.parse(el.getAttribute("data-countdown"));
      if (!isNaN(target)) el.textContent = fmt(target - Date.now());
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 1000);
  // htmx sends Django's CSRF token with every non-GET request.
  document.addEventListener("htmx:configRequest", function (e) {
    var m = document.querySelector("meta[name=csrf-token]");
    if (m) e.detail.headers["X-CSRFToken"] = m.getAttribute("content");
  });
})();
// Battle replay: "Play" steps through the turns at the chosen speed (kept across steps
// and visits); the buttons also work without it.
(function () {
  var timer = null;
  function delay() {
    var ms = parseInt(localStorage.getItem("replaySpeed") || "1200", 10);
    return ms > 0 ? ms : 1200;
  }
  function stop(btn) { clearInterval(timer); timer = null; if (btn) btn.textContent = "▶ Play"; }
  function start(btn) {
    clearInterval(timer);
    btn.textContent = "Pause";
    timer = setInterval(function () {
      var next = document.querySelector("[data-replay=next]");
      if (next) next.click(); else stop(document.querySelector("[data-replay-play]"));
    }, delay());
  }
  function wire() {
    var speed = document.querySelector("[data-replay-speed]");
    if (speed) {
      speed.closest("label").hidden = false;
      speed.value = String(delay());
      speed.onchange = function () {
        localStorage.setItem("replaySpeed", speed.value);
        var b = document.querySelector("[data-replay-play]");
        if (timer && b) start(b);
      };
    }
    var btn = document.querySelector("[data-replay-play]");
    if (!btn) return;
    btn.hidden = false;
    if (timer) btn.textContent = "Pause";
    btn.onclick = function () {
      if (timer) { stop(btn); return; }
      start(btn);
    };
  }
  document.addEventListener("DOMContentLoaded", wire);
  document.addEventListener("htmx:afterSettle", wire);
})();
// Replay navigation (issue 16): the arrow keys and a horizontal swipe step the replay
// (and the map's history), Home/End jump to the first and last step; keys typed into a
// form field are left alone.
(function () {
  function go(which) {
    var link = document.querySelector("[data-replay=" + which + "]") ||
      document.querySelector("a[rel=" + which + "]");
    if (link) link.click();
  }
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || (t && /INPUT|SELECT|TEXTAREA/.test(t.tagName))) return;
    if (!document.querySelector("#replay, .replay-controls")) return;
    if (e.key === "ArrowRight") go("next");
    else if (e.key === "ArrowLeft") go("prev");
    else if (e.key === "Home") go("first");
    else if (e.key === "End") go("last");
  });
  var startX = null;
  document.addEventListener("touchstart", function (e) {
    // a zoomed map pans instead of stepping through its history
    if (e.target.closest && e.target.closest(".replay-map, .map-frame:not(.zoomed)")) startX = e.touches[0].clientX;
  }, {passive: true});
  document.addEventListener("touchend", function (e) {
    if (startX === null) return;
    var dx = e.changedTouches[0].clientX - startX;
    startX = null;
    if (Math.abs(dx) > 60) go(dx < 0 ? "next" : "prev");
  }, {passive: true});
})();
// A form field marked data-autosubmit (the map's phase slider) submits when changed.
document.addEventListener("change", function (e) {
  var t = e.target;
  if (t && t.hasAttribute && t.hasAttribute("data-autosubmit") && t.form) t.form.submit();
});
// Irreversible actions ask first (issue 17): a form with data-confirm="question".
document.addEventListener("submit", function (e) {
  var form = e.target;
  var question = form && form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) e.preventDefault();
}, true);
// Map zoom and pan (issue 17): the buttons, the wheel and a drag change the SVG's
// viewBox; names grow with the zoom so they can be read on a phone.
(function () {
  function wire() {
    var frame = document.querySelector(".map-frame[data-zoomable]");
    if (!frame || frame.dataset.wired) return;
    var svg = frame.querySelector("svg");
    if (!svg) return;
    frame.dataset.wired = "1";
    var full = svg.viewBox.baseVal, size = full.width, box = {x: 0, y: 0, w: size};
    function apply() {
      box.w = Math.max(size / 12, Math.min(size, box.w));
      box.x = Math.max(0, Math.min(size - box.w, box.x));
      box.y = Math.max(0, Math.min(size - box.w, box.y));
      svg.setAttribute("viewBox", box.x + " " + box.y + " " + box.w + " " + box.w);
      frame.classList.toggle("zoomed", box.w < size);  // dragging pans only when zoomed
      var level = document.querySelector("[data-map-zoom-level]");
      if (level) level.textContent = Math.round(size / box.w * 100) + "%";
      names();
    }
    // A large map's names (issue 32): a picture of their own, fetched and shown once
    // zoomed in far enough for them to be read (10 CSS px or more).
    var labels = svg.querySelector("image.map-labels");
    var labelSize = parseFloat(svg.getAttribute("data-label-size") || "12");
    function names() {
      if (!labels) return;
      var px = svg.getBoundingClientRect().width / box.w * labelSize;
      var on = px >= 10;
      if (on && !labels.getAttribute("href")) labels.setAttribute("href", labels.getAttribute("data-labels"));
      labels.setAttribute("visibility", on ? "visible" : "hidden");
    }
    function zoom(f, cx, cy) {
      cx = cx === undefined ? box.x + box.w / 2 : cx;
      cy = cy === undefined ? box.y + box.w / 2 : cy;
      var w = box.w / f;
      box.x = cx - (cx - box.x) * (w / box.w);
      box.y = cy - (cy - box.y) * (w / box.w);
      box.w = w;
      apply();
    }
    document.querySelectorAll("[data-map-zoom]").forEach(function (b) {
      b.hidden = false;
      b.addEventListener("click", function () {
        var how = b.getAttribute("data-map-zoom");
        if (how === "in") zoom(1.5); else if (how === "out") zoom(1 / 1.5);
        else { box = {x: 0, y: 0, w: size}; apply(); }
      });
    });
    function point(e) {
      var r = svg.getBoundingClientRect();
      return {x: box.x + (e.clientX - r.left) / r.width * box.w,
              y: box.y + (e.clientY - r.top) / r.height * box.w};
    }
    svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      var p = point(e);
      zoom(e.deltaY < 0 ? 1.25 : 0.8, p.x, p.y);
    }, {passive: false});
    var drag = null, moved = false;
    svg.addEventListener("pointerdown", function (e) {
      if (box.w >= size) return;
      drag = {x: e.clientX, y: e.clientY, bx: box.x, by: box.y}; moved = false;
    });
    window.addEventListener("pointermove", function (e) {
      if (!drag) return;
      var r = svg.getBoundingClientRect(), k = box.w / r.width;
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 4) moved = true;
      box.x = drag.bx - (e.clientX - drag.x) * k;
      box.y = drag.by - (e.clientY - drag.y) * k;
      apply();
    });
    window.addEventListener("pointerup", function () { drag = null; });
    // a drag is not a click on the territory under the pointer
    svg.addEventListener("click", function (e) { if (moved) { e.preventDefault(); moved = false; } }, true);
    names();
  }
  document.addEventListener("DOMContentLoaded", wire);
})();
// Orders by clicking (issue 17): in the order form, a click on a highlighted territory of
// the map picks it as the destination instead of opening its page.
document.addEventListener("click", function (e) {
  var link = e.target.closest && e.target.closest("[data-pick-destination] a[data-territory]");
  if (!link) return;
  e.preventDefault();
  var form = document.querySelector("#order-form form");
  var radio = form && form.querySelector("input[name=destination][value='" +
    link.getAttribute("data-territory") + "']");
  var note = document.querySelector("#order-form .help");
  if (radio) {
    radio.checked = true;
    radio.focus();
    if (note) note.textContent = "Destination: " + radio.parentElement.textContent.trim() + ".";
  } else if (note) {
    note.textContent = "That territory cannot be reached from here.";
  }
});
// Building by clicking (issue 17): a click on a free square of the 16x16 territorial map
// fills the build form's column and row.
document.addEventListener("click", function (e) {
  var frame = e.target.closest && e.target.closest("[data-pick-square]");
  var x = document.getElementById("bx"), y = document.getElementById("by");
  if (!frame || !x || !y) return;
  var svg = frame.querySelector("svg");
  var r = svg.getBoundingClientRect();
  var col = Math.floor((e.clientX - r.left) / r.width * 16);
  var row = Math.floor((e.clientY - r.top) / r.height * 16);
  if (col < 0 || col > 15 || row < 0 || row > 15) return;
  var note = document.querySelector("[data-pick-square-note]");
  if (e.target.closest("[data-building]")) {
    if (note) note.textContent = "(" + col + ", " + row + ") is taken: pick a free square.";
    return;
  }
  x.value = col; y.value = row;
  if (note) note.textContent = "Square (" + col + ", " + row + ") chosen: pick a building and Build.";
  x.form.scrollIntoView({block: "nearest"});
});
// A territory list that belongs to the player chosen in another field (the trade form's
// "their territory"): only that player's territories are offered (issue 17).
(function () {
  function sync(select) {
    var owner = document.getElementById(select.getAttribute("data-owned-by"));
    if (!owner) return;
    var first = null;
    Array.prototype.forEach.call(select.options, function (o) {
      var mine = o.getAttribute("data-owner") === owner.value;
      o.hidden = !mine; o.disabled = !mine;
      if (mine && first === null) first = o;
    });
    if (select.selectedOptions.length === 0 || select.selectedOptions[0].disabled) {
      if (first) first.selected = true;
    }
  }
  function wire() {
    document.querySelectorAll("select[data-owned-by]").forEach(function (select) {
      var owner = document.getElementById(select.getAttribute("data-owned-by"));
      if (!owner) return;
      sync(select);
      owner.addEventListener("change", function () { sync(select); });
    });
  }
  document.addEventListener("DOMContentLoaded", wire);
})();
// Copy buttons (issue 26): <button data-copy="#id"> copies that field's value and says so
// in the button's own text; without the clipboard API the field is selected for the
// person to copy.
(function () {
  function said(btn, text) {
    var was = btn.getAttribute("data-label") || btn.textContent;
    btn.setAttribute("data-label", was);
    btn.textContent = text;
    setTimeout(function () { btn.textContent = was; }, 2500);
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-copy]");
    if (!btn) return;
    e.preventDefault();
    var field = document.querySelector(btn.getAttribute("data-copy"));
    if (!field) return;
    var value = field.value || field.textContent;
    function fallback() {
      field.select && field.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
      said(btn, ok ? "Copied" : "Selected: press Ctrl+C to copy");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(value).then(function () { said(btn, "Copied"); }, fallback);
    } else {
      fallback();
    }
  });
})();
// Sign-up (issue 27): the browser's time zone becomes the new account's, so deadlines are
// shown in the player's own time from the first page on.
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    var field = document.querySelector("input[name=time_zone][type=hidden]");
    if (!field || field.value) return;
    try { field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; }
    catch (e) { /* an old browser: UTC, changed on the profile */ }
  });
})();
// Phones (issue 26): a table wider than its place becomes cards, each cell named by its
// column (data-label), so no column hides past the edge; the meta-map, drawn large in a
// scrolling frame, opens on the player's own territories, and two fingers pinch it.
(function () {
  function label(table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (tr) {
      Array.prototype.forEach.call(tr.children, function (cell, i) {
        if (heads[i] && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", heads[i]);
      });
    });
  }
  function fit() {
    var narrow = window.matchMedia("(max-width: 40rem)").matches;
    document.querySelectorAll("main table").forEach(function (table) {
      if (!table.querySelector("thead th")) return;
      table.classList.remove("cards");
      if (!narrow) return;
      var room = (table.closest(".table-wrap") || table.parentElement).clientWidth;
      if (table.scrollWidth > room + 1) { label(table); table.classList.add("cards"); }
    });
  }
  function openMap() {
    var frame = document.querySelector(".map-frame[data-zoomable]");
    if (!frame || frame.scrollWidth <= frame.clientWidth) return;
    var mine = frame.querySelectorAll("a[data-mine] .hit");
    if (!mine.length) return;  // the umpire, a spectator: the map from its corner
    var f = frame.getBoundingClientRect(), x = 0, y = 0;
    mine.forEach(function (c) {
      var r = c.getBoundingClientRect();
      x += r.left + r.width / 2; y += r.top + r.height / 2;
    });
    frame.scrollLeft += x / mine.length - f.left - frame.clientWidth / 2;
    frame.scrollTop += y / mine.length - f.top - frame.clientHeight / 2;
  }
  function pinch() {
    var frame = document.querySelector(".map-frame[data-zoomable]");
    var zoomIn = document.querySelector("[data-map-zoom=in]");
    var zoomOut = document.querySelector("[data-map-zoom=out]");
    if (!frame || !zoomIn || !zoomOut) return;
    var touches = {}, start = null;
    function spread() {
      var p = Object.keys(touches).map(function (k) { return touches[k]; });
      return p.length < 2 ? null : Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
    }
    frame.addEventListener("pointerdown", function (e) {
      if (e.pointerType !== "touch") return;
      touches[e.pointerId] = {x: e.clientX, y: e.clientY};
      start = spread();
    });
    frame.addEventListener("pointermove", function (e) {
      if (!(e.pointerId in touches)) return;
      touches[e.pointerId] = {x: e.clientX, y: e.clientY};
      var now = spread();
      if (!start || !now) return;
      if (now / start > 1.35) { zoomIn.click(); start = now; }
      else if (start / now > 1.35) { zoomOut.click(); start = now; }
    });
    function lift(e) { delete touches[e.pointerId]; start = spread(); }
    frame.addEventListener("pointerup", lift);
    frame.addEventListener("pointercancel", lift);
  }
  document.addEventListener("DOMContentLoaded", function () { fit(); openMap(); pinch(); });
  window.addEventListener("resize", fit);
  document.addEventListener("htmx:afterSwap", fit);
})();
// Battle replay labels (issue 26): the server places them apart from an estimate of
// their width; here the browser measures the real boxes (its own font) and moves down
// any label that still touches one placed before it.
(function () {
  function apart(a, b) {
    return a.x + a.width <= b.x || b.x + b.width <= a.x ||
           a.y + a.height <= b.y || b.y + b.height <= a.y;
  }
  function spread() {
    document.querySelectorAll("#replay svg.battlefield").forEach(function (svg) {
      var placed = [];
      svg.querySelectorAll("text.label").forEach(function (t) {
        var box = t.getBBox();
        for (var tries = 0; tries < 40 && placed.some(function (p) { return !apart(box, p); }); tries++) {
          t.setAttribute("y", parseFloat(t.getAttribute("y")) + box.height / 2);
          box = t.getBBox();
        }
        placed.push(box);
      });
    });
  }
  document.addEventListener("DOMContentLoaded", spread);
  document.addEventListener("htmx:afterSwap", spread);
})();
