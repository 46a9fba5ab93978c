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
    if (e.target.closest && e.target.closest(".replay-map, .map-frame")) startX = e.touches[0].clientX;
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
