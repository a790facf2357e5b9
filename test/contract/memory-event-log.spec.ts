import { MemoryEventLog } from '../../src/log/memory/memory-event-log';
import { describeEventLogContract } from './event-log.contract';

describeEventLogContract('MemoryEventLog', () => ({ log: new MemoryEventLog(), dispose: () => undefined }));
