import type { AnchorHTMLAttributes, ComponentChildren, TargetedMouseEvent } from 'preact';
import { useId } from 'preact/hooks';
import { navigate } from '../routes.js';

/** An in-app link: a real <a href> (open in a new tab works), followed without a reload. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (e: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.href);
  };
  return <a {...props} href={props.href} onClick={onClick} />;
}

/** A labelled form control: the label names the control alone (not its value), by id. */
export function Field({ label, class: extra = '', children }: { label: string; class?: string; children: (id: string) => ComponentChildren }) {
  const id = useId();
  return (
    <div class={`field ${extra}`.trim()}>
      <label for={id}>{label}</label>
      {children(id)}
    </div>
  );
}

const TONE: Record<string, string> = {
  Completed: 'ok',
  Exported: 'ok',
  Failed: 'bad',
  'In Progress': 'busy',
  Processing: 'busy',
  Pending: 'wait',
};

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${TONE[status] ?? 'wait'}`}>{status}</span>;
}

/** An error said plainly, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="note note-error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

/** A project page's title: the name, what kind of project it is and when it was made, and its status when it has one. */
export function ProjectHead({ name, kind, createdAt, status }: { name: string; kind: string; createdAt: string; status?: string }) {
  return (
    <div class="page-head">
      <div>
        <h1>{name}</h1>
        <p class="muted">
          {kind} · {formatDate(createdAt)}
        </p>
      </div>
      {status && <StatusBadge status={status} />}
    </div>
  );
}

/** A page whose project is still loading, or could not be read. */
export function LoadingPage({ error }: { error: unknown }) {
  return (
    <main class="page">
      <ErrorNote error={error} />
      {!error && <p class="muted">Loading the project…</p>}
    </main>
  );
}

export function Note({ children, tone = 'info' }: { children: ComponentChildren; tone?: 'info' | 'warn' }) {
  return <p class={`note note-${tone}`}>{children}</p>;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
