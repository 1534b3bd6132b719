import { configure } from 'storybook/test';

// Story play functions run as tests on a loaded 2-core CI machine: findBy*/waitFor wait up to 5 s
// (not the default 1 s) and still return as soon as the element is there.
configure({ asyncUtilTimeout: 5_000 });
