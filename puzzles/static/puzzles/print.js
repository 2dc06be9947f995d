// The printable page's Print button (a file, not inline: the CSP allows no inline script).
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var button = document.getElementById("print-button");
  if (button) button.addEventListener("click", function () { window.print(); });
});
