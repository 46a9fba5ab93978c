// "Enable push on this device" (the channels page): only when pressed, asks the browser
// for permission, subscribes with the site's VAPID key and saves the subscription; the
// other button removes it. Messages go to the [data-push-status] live region.
(function () {
  function b64ToBytes(s) {
    var pad = "=".repeat((4 - s.length % 4) % 4);
    var raw = atob((s + pad).replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function csrf() {
    var m = document.querySelector("meta[name=csrf-token]");
    return m ? m.getAttribute("content") : "";
  }
  function say(text) {
    var el = document.querySelector("[data-push-status]");
    if (el) el.textContent = text;
  }
  function save(method, body) {
    var box = document.querySelector("[data-push]");
    return fetch(box.getAttribute("data-push-url"), {
      method: method, credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) throw new Error(j.detail || "refused"); return j; });
    });
  }
  function registration() {
    return navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    });
  }
  function enable() {
    var box = document.querySelector("[data-push]");
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      say("This browser cannot receive push notifications."); return;
    }
    say("Asking your browser…");
    Notification.requestPermission().then(function (answer) {
      if (answer !== "granted") { say("Push is off: the browser was not allowed to notify."); return null; }
      return registration().then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true,
          applicationServerKey: b64ToBytes(box.getAttribute("data-push-key"))});
      }).then(function (sub) { return save("POST", sub.toJSON()); })
        .then(function (j) { say(j.detail); });
    }).catch(function (e) { say("Push could not be turned on: " + e.message); });
  }
  function disable() {
    if (!("serviceWorker" in navigator)) return;
    registration().then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) {
        if (!sub) { say("Push was not on for this device."); return null; }
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () { return save("DELETE", {endpoint: endpoint}); })
          .then(function (j) { say(j.detail); });
      }).catch(function (e) { say("Push could not be turned off: " + e.message); });
  }
  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("[data-push-action]");
    if (!t) return;
    e.preventDefault();
    if (t.getAttribute("data-push-action") === "enable") enable(); else disable();
  });
})();
