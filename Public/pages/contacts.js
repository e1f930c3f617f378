// Contacts: server-driven navigation. The sheet, the alert and the stack of detail pages
// are drawn from `destination` and `path`; closing them sends `dismiss` or `popFrom`.

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupContacts(section, { send }) {
  const list = section.querySelector("#contact-list");
  const empty = section.querySelector("#contacts-empty");
  const root = section.querySelector("#contacts-root");
  const crumbs = section.querySelector("#contacts-crumbs");
  const detail = section.querySelector("#contact-detail");
  const detailName = section.querySelector("#contact-detail-name");
  const sheet = /** @type {HTMLDialogElement} */ (/** @type {unknown} */ (section.querySelector("#contact-sheet")));
  const nameField = section.querySelector("#contact-name");
  const alert = /** @type {HTMLDialogElement} */ (/** @type {unknown} */ (section.querySelector("#contact-alert")));
  const alertButtons = section.querySelector("#contact-alert-buttons");
  /** @type {number | null} */
  let topID = null;

  const ignore = () => {};
  section.querySelector("#contact-add").addEventListener("click", () => send({ contacts: "addButtonTapped" }).catch(ignore));
  nameField.addEventListener("input", () => {
    send({ contacts: { destination: { presented: { addContact: { binding: { name: nameField.value } } } } } }).catch(ignore);
  });
  section.querySelector("#contact-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ contacts: { destination: { presented: { addContact: "saveButtonTapped" } } } }).catch(ignore);
  });
  section.querySelector("#contact-cancel").addEventListener("click", () => {
    send({ contacts: { destination: { presented: { addContact: "cancelButtonTapped" } } } }).catch(ignore);
  });
  // Escape closes a dialog in the browser; the server decides, so ask it to dismiss.
  for (const dialog of [sheet, alert]) {
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      send({ contacts: { destination: "dismiss" } }).catch(ignore);
    });
  }
  section.querySelector("#contact-back").addEventListener("click", () => {
    if (topID !== null) send({ contacts: { path: { element: { id: topID, action: "backButtonTapped" } } } }).catch(ignore);
  });
  section.querySelector("#contact-detail-delete").addEventListener("click", () => {
    if (topID !== null) send({ contacts: { path: { element: { id: topID, action: "deleteButtonTapped" } } } }).catch(ignore);
  });

  /** Shows `dialog` modally while `open`, closes it otherwise. */
  function present(dialog, open) {
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }

  return (state) => {
    const contacts = state.contacts;
    if (!contacts) return;
    list.replaceChildren(
      ...contacts.contacts.map((contact) => {
        const item = document.createElement("li");
        item.dataset.id = contact.id;
        const open = Object.assign(document.createElement("button"), { type: "button", className: "contact-open", textContent: contact.name });
        open.addEventListener("click", () => send({ contacts: { contactTapped: { id: contact.id } } }).catch(ignore));
        const remove = Object.assign(document.createElement("button"), { type: "button", className: "btn btn-quiet contact-delete", textContent: "Delete" });
        remove.setAttribute("aria-label", `Delete ${contact.name}`);
        remove.addEventListener("click", () => send({ contacts: { deleteButtonTapped: { id: contact.id } } }).catch(ignore));
        item.append(open, remove);
        return item;
      }),
    );
    empty.hidden = contacts.contacts.length > 0;

    // The stack: crumbs back to any level, the top page shown.
    const path = contacts.path;
    const top = path[path.length - 1];
    topID = top ? top.id : null;
    root.hidden = Boolean(top);
    detail.hidden = !top;
    if (top) detailName.textContent = top.state.contact.name;
    const home = Object.assign(document.createElement("button"), { type: "button", className: "crumb", textContent: "Contacts" });
    if (path.length > 0) home.addEventListener("click", () => send({ contacts: { path: { popFrom: { id: path[0].id } } } }).catch(ignore));
    crumbs.replaceChildren(home, ...path.map((element, index) => {
      const crumb = Object.assign(document.createElement("button"), { type: "button", className: "crumb", textContent: element.state.contact.name });
      const above = path[index + 1];
      if (above) crumb.addEventListener("click", () => send({ contacts: { path: { popFrom: { id: above.id } } } }).catch(ignore));
      else crumb.setAttribute("aria-current", "page");
      return crumb;
    }));

    // The destination: a sheet or an alert, or nothing.
    const destination = contacts.destination;
    const form = destination && "addContact" in destination ? destination.addContact : null;
    const alertState = destination && "alert" in destination ? destination.alert : null;
    if (form && document.activeElement !== nameField) nameField.value = form.name;
    present(sheet, Boolean(form));
    if (alertState) {
      section.querySelector("#contact-alert-title").textContent = alertState.title;
      section.querySelector("#contact-alert-message").textContent = alertState.message ?? "";
      alertButtons.replaceChildren(...alertState.buttons.map((button) => {
        const element = Object.assign(document.createElement("button"), { type: "button", textContent: button.label });
        element.className = button.role === "destructive" ? "btn btn-danger" : "btn btn-quiet";
        element.addEventListener("click", () => {
          const answer = button.action === undefined ? "dismiss" : { presented: { alert: button.action } };
          send({ contacts: { destination: answer } }).catch(ignore);
        });
        return element;
      }));
    }
    present(alert, Boolean(alertState));
  };
}
