// Live progress of puzzle packs in the admin: every <progress data-progress-url> that is not
// finished asks its URL for the pack's progress once a second until the pack finishes.
"use strict";
(function () {
  var INTERVAL_MS = 1000;

  function update(bar, data) {
    bar.max = data.count;
    bar.value = data.made;
    var text = bar.parentNode.querySelector(".pack-progress-text");
    if (text) text.textContent = data.made + " / " + data.count + " (" + data.status_display + ")";
    if (data.error) bar.title = data.error;
  }

  function poll(bar) {
    fetch(bar.dataset.progressUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) return;
        update(bar, data);
        if (data.finished) {
          bar.dataset.finished = "1";
          // On the pack's own page, show the final status and error in full.
          if (document.body.classList.contains("change-form")) window.location.reload();
          return;
        }
        window.setTimeout(function () { poll(bar); }, INTERVAL_MS);
      })
      .catch(function () { window.setTimeout(function () { poll(bar); }, INTERVAL_MS * 5); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var bars = document.querySelectorAll("progress[data-progress-url]");
    var active = 0;
    bars.forEach(function (bar) {
      if (bar.dataset.finished || active >= 25) return;
      active += 1;
      window.setTimeout(function () { poll(bar); }, INTERVAL_MS);
    });
  });
})();
