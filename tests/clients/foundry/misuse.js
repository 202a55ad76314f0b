// Calls the module's adapter makes, each made wrong once: every line must fail to type-check against
// foundry-vtt-types, which shows those calls are checked (a call typed `any` would pass).
Hooks.on("renderChatMessageHTML", (message, html) => html.nope());
Hooks.on("renderChatMessageHTML", (message) => message.nope());
Hooks.on("controlToken", (token) => token.nope());
game.settings?.register("siege-foundry", "nope", { scope: "world", config: true, type: String, default: "" });
void game.settings?.set("siege-foundry", "battleId", 5);
void ChatMessage.create({ nope: 1 });
game.keybindings?.register("siege-foundry", "openPanel", { name: "x", editable: [{ key: "KeyS", modifiers: ["Shift"] }] });
void new Roll("2d6").evaluate().then((roll) => roll.nope);
void canvas?.tokens?.controlled[0].document.setFlag("siege-foundry", "entity", 5);
game.i18n?.format("SIEGE.Title", { count: 1 });
