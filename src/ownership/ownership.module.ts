import { Module } from '@nestjs/common';
import { NamespaceGate } from './namespace-gate';
import { RoomOwnership } from './room-ownership';

/**
 * Ownership of d- rooms (contract §3.3, §8.3, §10.4): the reserved namespaces, the namespace gate
 * the note lanes run, and the owned-room step of the room write gate. Rooms and notes both import
 * this module; it imports neither. What it reads of their write state comes through two ports,
 * OwnerNotes and RoomHeads, bound to the features' write models by the composition root.
 */
@Module({
  providers: [NamespaceGate, RoomOwnership],
  exports: [NamespaceGate, RoomOwnership],
})
export class OwnershipModule {}
