/** The pages for what cannot be shown: an ID nobody knows (404) and input that is not an ID at all (400). */
import type { RenderContext } from "../components";
import { html, type Html } from "../html";

export function renderNotFound(r: RenderContext, what: string, id: string): Html {
  return html`<p>No ${what} <code class="id">${id}</code> is known to this explorer.</p>
<p>It may not be accepted yet, or it belongs to another network; the explorer indexes what the node it follows has accepted. <a href="${r.links.search(id)}">Search for it</a> or go to the <a href="${r.links.home()}">latest transactions</a>.</p>`;
}

export function renderBadInput(r: RenderContext, problem: string, input: string): Html {
  return html`<p class="problem">${problem}</p>
<p>You gave <code>${input}</code>. <a href="${r.links.home()}">Back to the latest transactions</a>.</p>`;
}
