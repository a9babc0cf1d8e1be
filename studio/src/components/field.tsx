import './field.css';
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/**
 * A label above its control, tied to it with `for`: the control's name is the label's text alone (a
 * label wrapped around a select or a filled text box would add the control's value to its name,
 * "Voice Amy (rhvoice)" instead of "Voice"). `children` makes the control with the id it gets: `id`
 * when given (a control others find by it), else one of its own.
 */
export function Field({
  id,
  label,
  class: className,
  children,
}: {
  id?: string;
  label: ComponentChildren;
  class?: string;
  children: (id: string) => ComponentChildren;
}) {
  const ownId = useId();
  const controlId = id ?? ownId;
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={controlId}>{label}</label>
      {children(controlId)}
    </div>
  );
}
