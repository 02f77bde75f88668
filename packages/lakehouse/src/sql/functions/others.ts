// The rest of Trino's function list (https://trino.io/docs/current/functions/list.html): geospatial, machine
// learning, sketches, colors, …, whose names need nothing but the name: a call goes to DuckDB under the same name, and
// one DuckDB does not know fails as NOT_SUPPORTED naming it (execution/duckdb-errors.ts); and parse_data_size.
import { plain, type FunctionFamily } from './function';

const PARSE_DATA_SIZE = '^([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z]+)$';

// prettier-ignore
export const OTHER_FUNCTIONS: FunctionFamily = {
  ...plain([
    'approx_set', 'bar', 'bing_tile', 'bing_tile_at', 'bing_tile_coordinates', 'bing_tile_polygon',
    'bing_tile_quadkey', 'bing_tile_zoom_level', 'bing_tiles_around', 'classify', 'collect', 'color',
    'convex_hull_agg', 'current_groups', 'element', 'empty_approx_set', 'evaluate_classifier_predictions',
    'exclude_columns', 'features', 'from_encoded_polyline', 'from_geojson_geometry', 'fusion',
    'geometry_collect_agg', 'geometry_from_hadoop_shape', 'geometry_invalid_reason', 'geometry_nearest_points',
    'geometry_to_bing_tiles', 'geometry_union', 'geometry_union_agg', 'great_circle_distance', 'hash_counts',
    'intersection', 'intersection_cardinality', 'jaccard_index', 'learn_libsvm_classifier',
    'learn_libsvm_regressor', 'learn_regressor', 'line_interpolate_point', 'line_interpolate_points',
    'line_locate_point', 'make_set_digest', 'merge', 'merge_set_digest', 'objectid', 'objectid_timestamp',
    'qdigest_agg', 'regress', 'render', 'rgb', 'set', 'simplify_geometry', 'spatial_partitioning',
    'spatial_partitions', 'st_area', 'st_asbinary', 'st_asewkb', 'st_asewkt', 'st_astext', 'st_boundary',
    'st_buffer', 'st_centroid', 'st_collect', 'st_contains', 'st_convexhull', 'st_coorddim', 'st_crosses',
    'st_difference', 'st_dimension', 'st_disjoint', 'st_distance', 'st_endpoint', 'st_envelope', 'st_envelopeaspts',
    'st_equals', 'st_exteriorring', 'st_force2d', 'st_force3d', 'st_geometries', 'st_geometryfromtext',
    'st_geometryn', 'st_geometrytype', 'st_geomfrombinary', 'st_geomfromewkt', 'st_geomfromkml', 'st_interiorringn',
    'st_interiorrings', 'st_intersection', 'st_intersects', 'st_isclosed', 'st_isempty', 'st_isring', 'st_issimple',
    'st_isvalid', 'st_length', 'st_linefromtext', 'st_linemerge', 'st_linestring', 'st_makeline', 'st_makepolygon',
    'st_minimumboundingcircle', 'st_multi', 'st_multipoint', 'st_normalize', 'st_numgeometries',
    'st_numinteriorring', 'st_numpoints', 'st_orientedenvelope', 'st_overlaps', 'st_point', 'st_pointn',
    'st_pointonsurface', 'st_points', 'st_polygon', 'st_polygonize', 'st_reduceprecision', 'st_relate',
    'st_setsrid', 'st_srid', 'st_startpoint', 'st_symdifference', 'st_touches', 'st_transform', 'st_union',
    'st_voronoipolygons', 'st_within', 'st_x', 'st_xmax', 'st_xmin', 'st_y', 'st_ymax', 'st_ymin', 'st_z',
    'tdigest_agg', 'theta_sketch_cardinality', 'theta_sketch_union', 'timestamp_objectid', 'to_encoded_polyline',
    'to_geojson_geometry', 'to_geometry', 'to_spherical_geography', 'try_cast', 'uuid', 'value_at_quantile',
    'values_at_quantiles', 'version',
  ]),
  learn_classifier: { unsupported: true },
  // Trino's conversion.html: a data size such as '2.5MB' as a decimal count of bytes (units of 1024).
  parse_data_size: {
    returns: { k: 'decimal', precision: 38, scale: 0 },
    sql: ([s]) => {
      const number = `CAST(regexp_extract(${s}, '${PARSE_DATA_SIZE}', 1) AS DECIMAL(38,10))`;
      const unit = `list_position(['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'], regexp_extract(${s}, '${PARSE_DATA_SIZE}', 2))`;
      return `CAST(floor(${number} * CAST(power(1024, ${unit} - 1) AS DECIMAL(38,0))) AS DECIMAL(38,0))`;
    },
  },
};
