// The poll page: renders the session's state and sends the actions of Poll.Action.
import { StoreHostClient } from "/storehost/v1/storehost.js";

/** @type {StoreHostClient<import("./poll-types").State, import("./poll-types").Action>} */
const client = new StoreHostClient();
const $ = (id) => document.getElementById(id);

client.onStatus((status) => {
  $("status").textContent = status;
  $("status").className = status;
});

client.subscribe((state) => {
  $("question").textContent = state.board.question;
  const total = state.board.choices.reduce((sum, choice) => sum + choice.votes, 0);
  $("choices").replaceChildren(...state.board.choices.map((choice) => {
    const item = document.createElement("li");
    item.dataset.id = choice.id;
    item.classList.toggle("mine", choice.id === state.myVote);
    const vote = document.createElement("button");
    vote.className = "vote";
    vote.textContent = choice.title;
    vote.onclick = () => client.send({ vote: { id: choice.id } });
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.append(Object.assign(document.createElement("span"), {
      style: `width: ${total ? (100 * choice.votes) / total : 0}%`,
    }));
    const votes = Object.assign(document.createElement("span"), { className: "votes", textContent: choice.votes });
    item.append(vote, bar, votes);
    if (choice.votes === 0) {
      const remove = Object.assign(document.createElement("button"), { className: "remove", textContent: "×" });
      remove.title = "Remove (only choices nobody voted for)";
      remove.onclick = () => client.send({ removeChoice: { id: choice.id } });
      item.append(remove);
    }
    return item;
  }));
});

/**
 * Sends `action(text)` when `form` is submitted with text in `input`.
 * @param {string} form
 * @param {string} input
 * @param {(text: string) => import("./poll-types").Action} action
 */
function onSubmit(form, input, action) {
  $(form).addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $(input).value.trim();
    if (text) client.send(action(text));
    $(input).value = "";
  });
}
onSubmit("add-form", "choice-input", (title) => ({ addChoice: { title } }));
onSubmit("question-form", "question-input", (text) => ({ editQuestion: { text } }));

client.connect();
