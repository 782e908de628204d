import type { Page } from 'playwright-core';

/**
 * The visible buttons, text fields and selects of the page that still wear the browser's own
 * look: a background, border or text colour that is what the same element gets bare (in an empty
 * frame of the same colour scheme) and that is none of the app's `--color-*` colours. A button's
 * text colour counts only when it has text. A checkbox or radio the browser draws counts when it
 * keeps the browser's accent colour; file inputs are left out, the app shows them through labels.
 * Each is described as `tag.class "name": what is native`.
 */
export function nativeLookingControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The app's colours as the browser computes them in the current scheme, and no colour at all.
    const palette = new Set(['rgba(0, 0, 0, 0)']);
    const probe = document.createElement('span');
    document.body.append(probe);
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        if (!(rule instanceof CSSStyleRule) || rule.selectorText !== ':root') continue;
        for (const name of rule.style) {
          if (!name.startsWith('--color-')) continue;
          probe.style.color = `var(${name})`;
          palette.add(getComputedStyle(probe).color);
        }
      }
    }
    probe.remove();

    // An empty document in the page's scheme, where each control's bare twin shows the default.
    const frame = document.createElement('iframe');
    frame.style.cssText = 'position:fixed;width:0;height:0;border:0';
    document.body.append(frame);
    const bare = frame.contentDocument!;
    bare.documentElement.style.colorScheme = getComputedStyle(document.documentElement).colorScheme;

    const border = (style: CSSStyleDeclaration) => `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`;
    const found = new Set<string>();
    for (const control of document.querySelectorAll<HTMLElement>('button, input, textarea, select')) {
      if (control instanceof HTMLInputElement && /^(hidden|file|range|color)$/.test(control.type)) continue;
      const rect = control.getBoundingClientRect();
      const style = getComputedStyle(control);
      if (rect.width < 2 || rect.height < 2 || style.visibility !== 'visible' || style.opacity === '0' || control.closest('.visually-hidden')) continue;
      const classes = [...control.classList].map((name) => `.${name}`).join('');
      if (control instanceof HTMLInputElement && /^(checkbox|radio)$/.test(control.type)) {
        if (style.appearance !== 'none' && style.accentColor === 'auto') {
          const label = control.labels?.[0]?.textContent?.trim().slice(0, 30) ?? '';
          found.add(`input[type=${control.type}]${classes} "${label}": the browser's accent colour`);
        }
        continue;
      }

      const twin = bare.createElement(control.tagName);
      if (control instanceof HTMLInputElement) twin.setAttribute('type', control.type);
      if (control.matches(':disabled')) twin.setAttribute('disabled', '');
      bare.body.append(twin);
      const native = frame.contentWindow!.getComputedStyle(twin);
      const looks: string[] = [];
      if (style.backgroundColor === native.backgroundColor && style.backgroundImage === 'none' && !palette.has(style.backgroundColor)) {
        looks.push(`background ${style.backgroundColor}`);
      }
      if (border(style) === border(native) && style.borderTopStyle !== 'none' && !palette.has(style.borderTopColor)) {
        looks.push(`border ${border(style)}`);
      }
      // The text colour counts where there is text: a picture's button shows none.
      const showsText = !(control instanceof HTMLButtonElement) || control.textContent!.trim() !== '';
      if (showsText && style.color === native.color && !palette.has(style.color)) looks.push(`text ${style.color}`);
      twin.remove();
      if (looks.length === 0) continue;

      const name = (control.getAttribute('aria-label') || control.getAttribute('placeholder') || control.textContent || '').trim().slice(0, 30);
      found.add(`${control.tagName.toLowerCase()}${classes} "${name}": ${looks.join(', ')}`);
    }
    frame.remove();
    return [...found];
  });
}
