// Live pages: the server pushes "change" over server-sent events; the page fetches its #live
// part again (no reload). Every page keeps the stream open, so the dot in the bar shows the
// connection the same way everywhere (green: live), also where nothing is refreshed (Spieler,
// Nächste Serie: the organiser's unsaved input stays as typed).
(function () {
  "use strict";
  var live = document.getElementById("live");
  var dot = document.getElementById("livedot");
  var busy = false, again = false;
  window.skattischUpdates = 0;
  function refresh() {
    if (!live) return;
    if (busy) { again = true; return; }
    busy = true;
    var url = location.pathname + (location.search ? location.search + "&" : "?") + "fragment=1";
    fetch(url, {cache: "no-store"}).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (html !== null) { live.innerHTML = html; window.skattischUpdates += 1; }
    }).finally(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var source = null;
  function connect() {
    if (!window.EventSource || source) return;
    source = new EventSource("/live");
    source.addEventListener("open", function () { if (dot) dot.className = "livedot on"; });
    source.addEventListener("error", function () { if (dot) dot.className = "livedot off"; });
    source.addEventListener("change", refresh);
  }
  // A page left for another (or kept in the back/forward cache) gives its stream up: browsers
  // allow only six connections per server, and a projector may switch pages all evening.
  window.addEventListener("pagehide", function () { if (source) { source.close(); source = null; } });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { connect(); refresh(); } });
  connect();
  var setz = document.getElementById("setzliste");
  if (setz) setz.addEventListener("click", function () {
    document.getElementById("spieler").value = setz.getAttribute("data-names");
    var seeded = document.querySelector("input[name=art][value=gesetzt]");
    if (seeded) seeded.checked = true;
  });
})();
