// Registers the site's service worker (/sw.js) so the site can be installed and can
// show push notifications. Asks for nothing: push is enabled only by the button on the
// channels page (push.js), after the person asks.
(function () {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
  });
})();
