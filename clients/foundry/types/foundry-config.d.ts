// The module's own entries in fvtt-types' configuration: its settings, its flags and its API, so every
// Foundry call the adapter makes with them is checked against their types.
import type { Panel } from "../scripts/logic/panel.js";

declare module "fvtt-types/configuration" {
  interface SettingConfig {
    "siege-foundry.serviceUrl": string;
    "siege-foundry.battleId": string;
    "siege-foundry.ruleset": string;
    "siege-foundry.observerToken": string;
    "siege-foundry.diceMode": string;
    "siege-foundry.gmToken": string;
    "siege-foundry.sidePass": string;
  }

  interface FlagConfig {
    ChatMessage: { "siege-foundry": { version: number; battleId: string } };
    Token: { "siege-foundry": { entity: string } };
  }

  interface ModuleConfig {
    "siege-foundry": { api: { panel: Panel; open: () => Promise<void> } };
  }
}

declare global {
  /** The module's settings keys, as game.settings.register knows them (without the module's prefix). */
  type SettingKey = "serviceUrl" | "battleId" | "ruleset" | "observerToken" | "diceMode" | "gmToken" | "sidePass";
}
