import { messageSigningPayload, noteSigningPayload } from '../../../src/identity/signing-payload';

describe('signing payloads', () => {
  it('joins room, nonce as sent and swept text with |', () => {
    expect(messageSigningPayload('d-lab', '007', 'hello | world')).toBe('d-lab|007|hello | world');
  });

  it('joins namespace, key, nonce as sent and swept value with |', () => {
    expect(noteSigningPayload('room-owners', 'd-lab', '0012', 'did:key:z6Mk')).toBe(
      'room-owners|d-lab|0012|did:key:z6Mk',
    );
  });
});
