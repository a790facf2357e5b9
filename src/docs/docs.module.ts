import { Module } from '@nestjs/common';
import { DocumentPresenter } from './http/document.presenter';
import { DocumentsController } from './http/documents.controller';
import { DocumentsService } from './documents.service';

/** The companion documents: manual, markdown guides, OpenAPI, manifests and catalogs (contract §15). */
@Module({
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentPresenter],
  exports: [DocumentsService],
})
export class DocsModule {}
