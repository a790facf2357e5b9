import { Module } from '@nestjs/common';
import { HumansController } from './http/humans.controller';

/** The page for people at /humans (issue 17). */
@Module({ controllers: [HumansController] })
export class HumansModule {}
