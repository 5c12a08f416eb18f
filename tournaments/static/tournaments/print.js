// The "Print" button of the hand records and guide cards (no inline script: the CSP forbids it).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
