// The panel's window: an ApplicationV2 that hosts the panel's own element (the logic draws it), so this is
// the only Foundry code the panel has.

/** @type {() => HTMLElement} */
let panelElement = () => document.createElement("div");

/**
 * Where the window finds the panel's element (main.js sets it once the panel exists).
 * @param {() => HTMLElement} find
 */
export function hostPanel(find) {
  panelElement = find;
}

export class SiegePanelApp extends foundry.applications.api.ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: "siege-panel",
    classes: ["siege"],
    window: { title: "SIEGE.Panel.title", icon: "fa-solid fa-chess-rook", resizable: true },
    position: { width: 520, height: 680 },
  };

  /**
   * @param {foundry.applications.api.ApplicationV2.RenderContext} _context
   * @param {foundry.applications.api.ApplicationV2.RenderOptions} _options
   * @returns {Promise<HTMLElement>}
   */
  async _renderHTML(_context, _options) {
    return panelElement();
  }

  /**
   * @param {HTMLElement} result
   * @param {HTMLElement} content
   * @param {foundry.applications.api.ApplicationV2.RenderOptions} _options
   */
  _replaceHTML(result, content, _options) {
    if (result.parentElement !== content) content.replaceChildren(result);
  }
}
