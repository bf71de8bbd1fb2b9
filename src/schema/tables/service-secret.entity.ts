import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A secret the service made for itself (see the ServiceSecrets migration); never part of a response. */
@Entity({ name: 'service_secrets' })
export class ServiceSecret {
  @PrimaryColumn({ type: 'text' }) name: string;
  @Column({ type: 'text' }) value: string;
}
