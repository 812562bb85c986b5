/**
 * Class hashes of the local chain's contract models. They are local-only labels (no class is declared;
 * there is no Sierra or CASM behind them): the short strings of their names, so they cannot collide with
 * a real class hash.
 */
import { shortStringFelt } from "./felt.js";

export const LOCAL_ACCOUNT_CLASS_HASH = shortStringFelt("LOCAL_STARK_ACCOUNT");
export const LOCAL_ERC20_CLASS_HASH = shortStringFelt("LOCAL_OZ_ERC20");
export const LOCAL_HTLC_CLASS_HASH = shortStringFelt("LOCAL_HTLC");
export const LOCAL_EVENT_EMITTER_CLASS_HASH = shortStringFelt("LOCAL_EVENT_EMITTER");
