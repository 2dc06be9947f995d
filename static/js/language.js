// The header's language switcher: choosing a language submits the form, so its button
// (there for browsers without JavaScript) goes. The server keeps the player on the page.
for (const form of document.querySelectorAll(".language-switcher")) {
  form.querySelector("button")?.remove();
  form.querySelector("select").addEventListener("change", () => form.requestSubmit());
}
