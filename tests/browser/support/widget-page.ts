import type { Locator, Page } from 'playwright-core';

/** Looks at one embedded widget the way a visitor (and a screen reader) would: by roles and names. */
export class WidgetPage {
  constructor(
    readonly page: Page,
    readonly title: string,
  ) {}

  get launcher(): Locator {
    return this.page.getByRole('button', { name: `Chat with ${this.title}` });
  }

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: this.title });
  }

  get log(): Locator {
    return this.dialog.getByRole('log');
  }

  get input(): Locator {
    return this.dialog.getByLabel('Your message');
  }

  get sendButton(): Locator {
    return this.dialog.getByRole('button', { name: 'Send' });
  }

  answers(): Locator {
    return this.log.locator('.m.a');
  }

  questions(): Locator {
    return this.log.locator('.m.u');
  }

  errors(): Locator {
    return this.log.locator('.m.e');
  }

  async open(): Promise<void> {
    await this.launcher.click();
    await this.dialog.waitFor();
  }

  async send(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  /** Resolves once the answer to the last message has finished (or failed). */
  async answered(): Promise<void> {
    await this.log.and(this.page.locator('[aria-busy="false"]')).waitFor();
  }

  async sendAndWait(text: string): Promise<void> {
    await this.send(text);
    await this.answered();
  }

  /** Where the focus is inside the widget's shadow root: tag name plus accessible label, if any. */
  focused(): Promise<string> {
    return this.page.evaluate((title) => {
      const host = Array.from(document.querySelectorAll('ai-chat-widget')).find((el) => el.shadowRoot?.querySelector(`[aria-label="${title}"]`));
      if (!host || document.activeElement !== host) return 'outside';
      const active = host.shadowRoot!.activeElement;
      return active ? `${active.tagName.toLowerCase()}${active.getAttribute('aria-label') ? `:${active.getAttribute('aria-label')}` : ''}` : 'none';
    }, this.title);
  }
}

/** Reads computed style properties of the first element matching a selector (shadow roots pierced by Playwright). */
export function computed(locator: Locator, properties: string[]): Promise<Record<string, string>> {
  return locator.first().evaluate((el, names) => {
    const style = getComputedStyle(el);
    return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
  }, properties);
}
