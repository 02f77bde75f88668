import { describe, expect, test } from '@jest/globals';
import {
  speakingIn,
  type ErrorStyle,
  type LocalReply,
  type LocalRequest,
  type ServiceModule,
} from './protocol';

const JSON_STYLE: ErrorStyle = { protocol: 'awsJson1_0', messageKey: 'message' };
const QUERY_STYLE: ErrorStyle = { protocol: 'awsQuery', messageKey: 'Message' };

/** A module written as a class: its members live on the prototype and read `this`. */
class ClassModule implements ServiceModule {
  readonly name = 'Example';
  readonly errorStyle = JSON_STYLE;
  readonly internalErrorCode = 'InternalFailure';
  private handled = 0;
  claims(): boolean {
    return true;
  }
  operationOf(): { operation: string; params: Record<string, string>; input: Record<string, unknown> } {
    return { operation: `Op${this.handled}`, params: {}, input: {} };
  }
  async handle(): Promise<LocalReply> {
    this.handled++;
    return { status: 200, json: this.handled };
  }
}

describe('speakingIn', () => {
  test("keeps a class module's methods and state in another error style", async () => {
    const module = new ClassModule();
    const view = speakingIn(module, QUERY_STYLE);
    const request = {} as LocalRequest;
    expect(view.errorStyle).toBe(QUERY_STYLE);
    expect(view.claims(request)).toBe(true);
    expect((await view.handle(request)).json).toBe(1);
    expect(view.operationOf?.(request)?.operation).toBe('Op1');
    // The same style is the module itself.
    expect(speakingIn(module, JSON_STYLE)).toBe(module);
  });
});
