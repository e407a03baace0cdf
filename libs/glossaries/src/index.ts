export * from './glossary.entity';
export * from './glossary-limits';
export * from './glossary-draft';
export * from './glossary-csv';
export * from './glossary.service';
export * from './glossaries.module';
export * from './dtos/glossary-entry.dto';
export * from './dtos/glossary-responses.dto';
