import { JetStreamEventLog } from '../../src/log/nats/jetstream-event-log';
import { deleteStream, natsLogOptions, uniqueStreamName } from '../support/nats-stream';
import { describeEventLogContract } from './event-log.contract';

// The suite's private, current nats-server (never mocked); one fresh stream per scenario.
describeEventLogContract(
  'JetStreamEventLog (real nats-server)',
  () => {
    const stream = uniqueStreamName('contract');
    const create = () => new JetStreamEventLog(natsLogOptions(stream));
    return { log: create(), reopen: create, dispose: () => deleteStream(stream) };
  },
  { persistent: true, shared: true },
);
