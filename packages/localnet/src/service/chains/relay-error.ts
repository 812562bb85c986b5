/** The relayer refused to send because the call would fail on chain; the message names why. */
export class RelayRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RelayRejectedError";
  }
}
