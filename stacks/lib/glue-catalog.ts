// aws_glue_catalog through cdktf's raw-resource escape hatch: the prebuilt bindings wrap AWS provider 6.25.0 and this
// resource arrived in 6.44.0 (GLUE_CATALOG_SINCE; the stacks pin AWS_PROVIDER_VERSION, see provider-version.ts). Attribute names follow the provider's
// docs: name, description, federated_catalog { identifier, connection_name }.
import { TerraformResource, type TerraformMetaArguments } from 'cdktf';
import type { Construct } from 'constructs';
import { GLUE_CATALOG_SINCE } from './provider-version';

export interface GlueFederatedCatalogConfig extends TerraformMetaArguments {
  readonly name: string;
  readonly description?: string;
  readonly federatedCatalog: { readonly identifier: string; readonly connectionName: string };
}

/**
 * The resource's attributes in provider 6.x (internal/service/glue/catalog.go, the plugin-framework schema): it has
 * no `id`. No mirrored provider here has the type, so what references it (a replace_triggered_by) is checked against
 * this list.
 */
export const GLUE_CATALOG_ATTRIBUTES = [
  'allow_full_table_external_data_access',
  'arn',
  'catalog_id',
  'catalog_properties',
  'create_database_default_permissions',
  'create_table_default_permissions',
  'create_time',
  'description',
  'federated_catalog',
  'name',
  'overwrite_child_resource_permissions_with_default',
  'parameters',
  'tags',
  'tags_all',
  'target_redshift_catalog',
  'timeouts',
  'update_time',
] as const;

export class GlueFederatedCatalog extends TerraformResource {
  static readonly tfResourceType = 'aws_glue_catalog';
  private readonly config: GlueFederatedCatalogConfig;

  constructor(scope: Construct, id: string, config: GlueFederatedCatalogConfig) {
    super(scope, id, {
      terraformResourceType: GlueFederatedCatalog.tfResourceType,
      terraformGeneratorMetadata: {
        providerName: 'aws',
        providerVersionConstraint: `>= ${GLUE_CATALOG_SINCE}`,
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
    });
    this.config = config;
  }

  get arn(): string {
    return this.getStringAttribute('arn');
  }

  get catalogId(): string {
    return this.getStringAttribute('catalog_id');
  }

  get nameAttr(): string {
    return this.getStringAttribute('name');
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return {
      name: this.config.name,
      description: this.config.description,
      federated_catalog: [
        {
          identifier: this.config.federatedCatalog.identifier,
          connection_name: this.config.federatedCatalog.connectionName,
        },
      ],
    };
  }
}
