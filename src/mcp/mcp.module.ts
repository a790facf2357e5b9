import { Module } from '@nestjs/common';
import { DocsModule } from '../docs/docs.module';
import { ListingModule } from '../listing/listing.module';
import { NotesModule } from '../notes/notes.module';
import { RoomsModule } from '../rooms/rooms.module';
import { StreamsModule } from '../streams/streams.module';
import { WatchTools } from './watch-tools';
import { McpController } from './http/mcp.controller';
import { McpMeter } from './mcp-meter';
import { McpServerPool } from './mcp-server-pool';
import { McpService } from './mcp.service';
import { MetaTools } from './meta-tools';
import { NoteTools } from './note-tools';
import { RoomTools } from './room-tools';

/** The MCP tool surface at /mcp: the rooms, notes, listing and documents services as tools. */
@Module({
  imports: [RoomsModule, StreamsModule, NotesModule, ListingModule, DocsModule],
  controllers: [McpController],
  providers: [McpService, McpServerPool, McpMeter, RoomTools, NoteTools, MetaTools, WatchTools],
})
export class McpModule {}
