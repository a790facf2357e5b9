import { TestApp } from '../support/test-app';

/**
 * A text write reply is kept for the next writer of the same room version (RoomPresenter.written): a
 * reply must always be the room as it is after its own write, equal to a plain read of the same
 * view, never a copy kept from before the write or from another room.
 */
describe('rooms: text write replies reused per room version', () => {
  let t: TestApp;
  beforeEach(async () => (t = await TestApp.start()));
  afterEach(() => t.close());

  it('shows the new message after a cached read of the same view, and equals the read that follows', async () => {
    for (let i = 1; i <= 25; i++) await t.getPath(`/r/lobby/say/alice/message%20${i}`);
    const before = await t.getPath('/r/lobby?limit=20');
    expect(before.body.split('\n')[0]).toBe('# room lobby  messages 20  range 6..25');

    const said = await t.getPath('/r/lobby/say/bob/the%20newest');
    expect(said.status).toBe(200);
    expect(said.body.split('\n')[0]).toBe('# room lobby  messages 20  range 7..26');
    expect(said.body).toMatch(/\[26\] \S+ <~bob> the newest\n/);

    const after = await t.getPath('/r/lobby?limit=20');
    expect(after.body).toBe(said.body);
  });

  it("never answers one room with another room's reply, nor e- rooms from the kept one", async () => {
    await t.getPath('/r/alpha/say/alice/in%20alpha');
    const beta = await t.getPath('/r/beta/say/alice/in%20beta');
    expect(beta.body.split('\n')[0]).toBe('# room beta  messages 1  range 1..1');
    expect(beta.body).toContain('<~alice> in beta\n');
  });

  it('renders e- rooms every time (their expiry depends on the clock)', async () => {
    await t.getPath('/r/e-lobby/say/alice/first');
    const said = await t.getPath('/r/e-lobby/say/bob/second');
    expect(said.body.split('\n')[0]).toBe('# room e-lobby  messages 2  range 1..2');
  });
});
