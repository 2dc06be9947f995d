// The header's language switcher: choosing a language submits the form (the button is for
// browsers without JavaScript). The server keeps the player on the same page.
for (const form of document.querySelectorAll(".language-switcher")) {
  const select = form.querySelector("select");
  form.classList.add("auto");
  select.addEventListener("change", () => form.requestSubmit());
}
