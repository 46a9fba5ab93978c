// The site's service worker (served at /sw.js, scope "/"): shows the Web Push
// notifications the server sends (deadlines, results, messages) and opens the page
// named in one when it is tapped. It caches nothing.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data.text()}; }
  event.waitUntil(self.registration.showNotification(data.title || "Unlimit3d 8 campaigns", {
    body: data.body || "", icon: "/static/icons/icon-192.png", data: {url: data.url || "/"}
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(clients.openWindow(url));
});
