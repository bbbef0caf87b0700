// A page opened from the file system (file://) may not start a Web Worker, and Material's
// search runs in one. There, run the worker's script in a hidden same-origin frame with
// the same message interface. Over http(s) this does nothing.
// (Its name contains "iframe-worker" so that Material's offline plugin does not add its
// own shim from a third-party host.)
(() => {
  if (location.protocol !== "file:") return;

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this.pending = [];
      const frame = document.createElement("iframe");
      frame.hidden = true;
      frame.title = "Search worker";
      frame.setAttribute("aria-hidden", "true");
      (document.body || document.documentElement).append(frame);
      this.scope = frame.contentWindow;
      // The worker's own postMessage answers this object, as a worker's would.
      this.scope.postMessage = (data) => setTimeout(() => this.receive(data));
      const script = this.scope.document.createElement("script");
      script.src = new URL(url, location.href).href;
      script.onload = () => {
        const waiting = this.pending;
        this.pending = null;
        waiting.forEach((data) => this.postMessage(data));
      };
      script.onerror = () => {
        const event = new Event("error");
        this.dispatchEvent(event);
        if (this.onerror) this.onerror(event);
      };
      this.scope.document.head.append(script);
    }

    postMessage(data) {
      if (this.pending) {
        this.pending.push(data);
        return;
      }
      this.scope.dispatchEvent(new this.scope.MessageEvent("message", { data }));
    }

    receive(data) {
      const event = new MessageEvent("message", { data });
      this.dispatchEvent(event);
      if (this.onmessage) this.onmessage(event);
    }

    terminate() {
      this.scope.frameElement?.remove();
    }
  }

  window.Worker = FrameWorker;
})();
