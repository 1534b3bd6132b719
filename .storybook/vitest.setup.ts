import { configure } from 'storybook/test';

// Story play functions run as tests on a loaded 2-core CI machine: findBy*/waitFor wait up to 15 s
// (not the default 1 s), as expect.poll does in the other projects, and still return as soon as
// the element is there. A play passes no shorter timeout of its own.
configure({ asyncUtilTimeout: 15_000 });
