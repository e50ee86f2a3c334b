import { catalogMarkdown } from './catalog-markdown';

process.stdout.write(catalogMarkdown());
