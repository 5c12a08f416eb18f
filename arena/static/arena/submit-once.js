// A form marked data-submit-once sends itself once: its buttons are disabled as it is sent,
// so that a double click does not post it twice (the server also queues an identical
// challenge once). A page shown again from the back button's cache gets its buttons back.
document.querySelectorAll("form[data-submit-once]").forEach((form) => {
  form.addEventListener("submit", () => {
    form.querySelectorAll("button[type=submit]").forEach((button) => {
      button.disabled = true;
    });
  });
});
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  document.querySelectorAll("form[data-submit-once] button[type=submit]").forEach((button) => {
    button.disabled = false;
  });
});
