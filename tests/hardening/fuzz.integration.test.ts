// Runs the fuzz suite (fuzz.suite.ts), open and owner mode, on the app in this process over MongoDB, and its
// pipelined requests on a real socket of a server in this process.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeFuzz, describeWireFuzz, type FuzzStoreFactory } from './fuzz.suite.js';
import { mongoStores } from '../support/stores.js';

// The snapshot reads the collections themselves, so a write that bypassed the repositories would show too.
describeWithMongo('over MongoDB', (mongo) => {
  const mongodb: FuzzStoreFactory = {
    label: 'mongodb',
    open: async () => ({
      store: await mongoStores(mongo).open(),
      snapshot: async () => {
        const { db } = mongo();
        const [users, posts] = await Promise.all([
          db.collection('users').find({}).sort({ _id: 1 }).toArray(),
          db.collection('posts').find({}).sort({ _id: 1 }).toArray(),
        ]);
        return { users, posts };
      },
    }),
  };
  describeFuzz(mongodb);
  describeFuzz(mongodb, 'owner');
  describeWireFuzz(mongodb);
});
