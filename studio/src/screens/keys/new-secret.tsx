import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreatedKey } from './create-key.js';

/**
 * The new key's secret, shown this once: the service keeps only its hash. It lives in this
 * component's state alone (never in the address, storage or a log), so leaving the screen or
 * reloading the page drops it.
 */
export function NewSecret({ created, onDismiss }: { created: CreatedKey; onDismiss: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => heading.current?.focus(), [created.key_id]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      // The clipboard may be refused (permissions, an insecure origin): leave the text selected for copying by hand.
      field.current?.select();
      setCopied('failed');
    }
  };

  return (
    <section class="panel new-secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title" tabIndex={-1} ref={heading}>
        Key “{created.name}” created
      </h2>
      <p>
        <strong>Copy this secret now: it will not be shown again.</strong> Timbre stores only a hash of it; if it is lost, delete the key and create another.
      </p>
      <label for="new-secret-value">Secret of {created.name}</label>
      <div class="row">
        <input
          id="new-secret-value"
          class="secret"
          readOnly
          value={created.key}
          spellcheck={false}
          autocomplete="off"
          ref={field}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" onClick={onDismiss}>
          I have saved it
        </button>
      </div>
      <p class="hint" role="status">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser refused the clipboard: the secret is selected, copy it with Ctrl+C.'
            : ''}
      </p>
    </section>
  );
}
