// The SharedWorker that holds the one event stream of a browser's tabs (see stream-hub.js).
// storehost.js starts it, named after the hub protocol and the server, so every tab of the
// origin that talks to that server shares it, and a tab with a client of another protocol
// version gets a worker of its own. It lives while any of those tabs does.
import { serve, StreamHub } from "./stream-hub.js";

/** @type {StreamHub | null} */
let hub = null;

globalThis.onconnect = (event) => {
  const [port] = event.ports;
  port.onmessage = ({ data }) => {
    switch (data?.type) {
      case "init":
        hub ??= new StreamHub(data.options);
        break;
      case "hello":
        // The tab holds the lock `data.lock` for as long as it lives: once this worker gets
        // it, the tab is gone, whether it closed, crashed or was discarded.
        if (globalThis.navigator?.locks && typeof data.lock === "string") {
          navigator.locks.request(data.lock, () => hub?.unwatchAll(`${data.tab}/`));
        }
        break;
      default:
        if (hub) serve(hub, data, (client) => (message) => port.postMessage({ ...message, to: client }));
    }
  };
  port.start();
};
