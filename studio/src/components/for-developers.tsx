import type { ComponentChildren } from 'preact';

/**
 * The exact routes, fields and event names behind a screen, folded away: the screen itself speaks
 * in plain words, and a developer who wants to call the API opens this.
 */
export function ForDevelopers({ children }: { children: ComponentChildren }) {
  return (
    <details class="for-developers">
      <summary>For developers</summary>
      <div class="for-developers-body">{children}</div>
    </details>
  );
}
