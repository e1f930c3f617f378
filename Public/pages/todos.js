// Todos: a bound text field, a bound filter, and a list whose rows keep their elements
// (and so their focus) across updates; a title is edited in place, as in TodoMVC.
import { plural } from "./render.js";

const deleteIcon =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18"/></svg>';
const editIcon =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13 7l4 4"/></svg>';

function iconButton(className, icon) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `btn-icon ${className}`;
  button.innerHTML = icon;
  return button;
}

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupTodos(section, { client, send, showError }) {
  const form = section.querySelector("#todo-form");
  const input = section.querySelector("#todo-new");
  const list = section.querySelector("#todo-list");
  const empty = section.querySelector("#todo-empty");
  const remaining = section.querySelector("#todo-remaining");
  const clear = section.querySelector("#todo-clear");
  const filters = [...section.querySelectorAll('input[name="todo-filter"]')];

  // The text field is bound to `newTodoText` on the server. While our own edits are on
  // their way, the server's (older) value must not overwrite what is being typed; once the
  // state has caught up with our last edit, the server's value wins again (an add clears it,
  // another tab may change it).
  let editsInFlight = 0;
  let editVersion = 0;
  let editPending = false;

  function track(promise) {
    editsInFlight += 1;
    return promise
      .then((version) => (editVersion = Math.max(editVersion, version)))
      .catch(() => {})
      .finally(() => {
        editsInFlight -= 1;
        if (editPending && editsInFlight === 0) pushText();
      });
  }

  // Latest wins: at most one binding on its way, then the field's value at that time.
  function pushText() {
    if (editsInFlight > 0) {
      editPending = true;
      return;
    }
    editPending = false;
    track(send({ todos: { binding: { newTodoText: input.value } } }));
  }

  input.addEventListener("input", pushText);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const title = input.value;
    if (!title.trim()) {
      showError("Type a to-do first.");
      input.focus();
      return;
    }
    editPending = false;
    input.value = "";
    // One request, applied in order: set the text, then tap Add.
    track(send([{ todos: { binding: { newTodoText: title } } }, { todos: "addButtonTapped" }]));
  });

  // The filter is bound too; the same rule keeps a just-picked filter from flickering back.
  let filterInFlight = 0;
  let filterVersion = 0;
  for (const radio of filters) {
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      filterInFlight += 1;
      const filter = /** @type {import("./render.js").State["todos"]["filter"]} */ (radio.value);
      send({ todos: { binding: { filter } } })
        .then((version) => (filterVersion = Math.max(filterVersion, version)))
        .catch(() => {})
        .finally(() => (filterInFlight -= 1));
    });
  }

  // aria-disabled rather than disabled, so a focused button keeps its focus.
  clear.addEventListener("click", () => {
    if (clear.getAttribute("aria-disabled") === "true") return;
    send({ todos: "clearCompletedButtonTapped" }).catch(() => {});
  });

  // MARK: Rows

  const rows = new Map(); // todo id -> {row, checkbox, title, edit, remove}
  let focusAfterDelete = null; // index of a deleted row whose controls had focus
  let editing = null; // {parts, field}: the row whose title is being edited

  function makeRow(todo) {
    const row = document.createElement("li");
    row.className = "todo";
    row.dataset.id = todo.id;
    const checkbox = document.createElement("input");
    checkbox.type = "checkbox";
    checkbox.setAttribute("aria-labelledby", `todo-title-${todo.id}`);
    checkbox.addEventListener("change", () => sendToTodo(todo.id, { binding: { isComplete: checkbox.checked } }));
    // Not tied to the checkbox (as in TodoMVC): a double-click edits rather than toggles twice.
    const title = document.createElement("label");
    title.id = `todo-title-${todo.id}`;
    const edit = iconButton("todo-edit", editIcon);
    const remove = iconButton("todo-delete", deleteIcon);
    const parts = { row, checkbox, title, edit, remove };
    title.addEventListener("dblclick", () => startEditing(parts));
    edit.addEventListener("click", () => startEditing(parts));
    remove.addEventListener("click", () => deleteTodo(parts, { hadFocus: document.activeElement === remove }));
    row.append(checkbox, title, edit, remove);
    return parts;
  }

  function updateRow({ row, checkbox, title, edit, remove }, todo) {
    if (checkbox.checked !== todo.isComplete) checkbox.checked = todo.isComplete;
    if (title.textContent !== todo.title) {
      title.textContent = todo.title;
      edit.setAttribute("aria-label", `Edit “${todo.title}”`);
      remove.setAttribute("aria-label", `Delete “${todo.title}”`);
    }
    row.classList.toggle("is-complete", todo.isComplete);
  }

  function sendToTodo(id, action) {
    send({ todos: { todos: { element: { id, action } } } }).catch(() => {});
  }

  /** Deletes the row's to-do; if its controls had focus, the next row's delete button gets it. */
  function deleteTodo(parts, { hadFocus }) {
    if (hadFocus) focusAfterDelete = [...list.children].indexOf(parts.row);
    send({ todos: { deleteButtonTapped: { id: parts.row.dataset.id } } }).catch(() => {});
  }

  // MARK: Editing a title

  // Enter (or leaving the field) saves, Escape cancels; an empty title deletes the to-do.
  function startEditing(parts) {
    const field = document.createElement("input");
    field.type = "text";
    field.className = "todo-edit-field";
    field.maxLength = 200;
    field.enterKeyHint = "done";
    field.value = parts.title.textContent;
    field.setAttribute("aria-label", `Edit “${parts.title.textContent}”`);
    field.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== "Escape") return;
      event.preventDefault();
      finishEditing({ save: event.key === "Enter" });
    });
    // Ignore the blur of a field being removed (the row left the list) or already finished.
    field.addEventListener("blur", () => {
      if (editing?.field === field && field.isConnected) finishEditing({ save: true });
    });
    parts.row.classList.add("is-editing");
    parts.row.append(field);
    editing = { parts, field };
    field.focus();
    field.select();
  }

  function finishEditing({ save }) {
    const { parts, field } = editing;
    editing = null;
    const hadFocus = document.activeElement === field;
    const title = field.value.trim();
    parts.row.classList.remove("is-editing");
    field.remove();
    if (hadFocus) parts.edit.focus();
    if (!save || title === parts.title.textContent) return;
    if (title) sendToTodo(parts.row.dataset.id, { binding: { title } });
    else deleteTodo(parts, { hadFocus });
  }

  function renderRows(visible) {
    const ids = new Set(visible.map((todo) => todo.id));
    for (const [id, parts] of rows) {
      if (!ids.has(id)) {
        if (editing?.parts === parts) editing = null;
        parts.row.remove();
        rows.delete(id);
      }
    }
    let previous = null;
    for (const todo of visible) {
      let parts = rows.get(todo.id);
      if (!parts) {
        parts = makeRow(todo);
        rows.set(todo.id, parts);
      }
      updateRow(parts, todo);
      const expected = previous ? previous.nextElementSibling : list.firstElementChild;
      if (parts.row !== expected) list.insertBefore(parts.row, expected);
      previous = parts.row;
    }
    if (focusAfterDelete !== null && !list.contains(document.activeElement)) {
      const next = list.children[Math.min(focusAfterDelete, list.children.length - 1)];
      (next?.querySelector(".todo-delete") ?? input).focus();
      focusAfterDelete = null;
    }
  }

  let session = null;
  let lastVersion = 0;

  return (state, version) => {
    const todos = state.todos;
    if (!todos) return;
    if (client.sessionId !== session || version < lastVersion) {
      // A new session counts its versions from the start again (as does a server that
      // lost its latest versions).
      session = client.sessionId;
      editVersion = 0;
      filterVersion = 0;
    }
    lastVersion = version;
    if (editsInFlight === 0 && !editPending && version >= editVersion && input.value !== todos.newTodoText) {
      input.value = todos.newTodoText;
    }
    if (filterInFlight === 0 && version >= filterVersion) {
      for (const radio of filters) radio.checked = radio.value === todos.filter;
    }
    const visible = todos.todos.filter((todo) =>
      todos.filter === "active" ? !todo.isComplete : todos.filter === "completed" ? todo.isComplete : true,
    );
    renderRows(visible);
    const left = todos.todos.filter((todo) => !todo.isComplete).length;
    const done = todos.todos.length - left;
    const leftText = plural(left, "item left", "items left");
    if (remaining.textContent !== leftText) remaining.textContent = leftText;
    clear.setAttribute("aria-disabled", String(done === 0));
    empty.hidden = visible.length > 0;
    empty.textContent =
      todos.todos.length === 0
        ? "Nothing to do yet. Add something above."
        : todos.filter === "active"
          ? "All done. Nice."
          : "Nothing completed yet.";
  };
}
