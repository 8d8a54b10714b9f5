import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Whole-app renders on a loaded machine can take longer than the 1 s default to settle.
configure({ asyncUtilTimeout: 5_000 });

// antd's responsive helpers need matchMedia, which jsdom lacks.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// antd's Menu overflow and Flex measure with ResizeObserver, which jsdom lacks.
if (typeof globalThis.ResizeObserver === 'undefined') {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });
}

// antd's form notifies watchers in a macro task through MessageChannel, which jsdom lacks; Node's
// own keeps the worker alive while a port listens, so a timer-backed one stands in.
if (typeof globalThis.MessageChannel === 'undefined') {
  class TimerPort {
    other: TimerPort | null = null;
    onmessage: ((event: { data: unknown }) => void) | null = null;
    postMessage(data: unknown): void {
      const target = this.other;
      setTimeout(() => target?.onmessage?.({ data }), 0);
    }
    close(): void {
      this.onmessage = null;
    }
  }
  class TimerChannel {
    port1 = new TimerPort();
    port2 = new TimerPort();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  }
  Object.assign(globalThis, { MessageChannel: TimerChannel });
}
